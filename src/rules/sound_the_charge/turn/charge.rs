//! Charges and evades: Charging and Evading.
