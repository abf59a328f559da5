//! Where inbound mail comes from. Each source hands raw bytes to
//! [`crate::ingest::ingest`] and lets go of a message only once it is stored.

pub mod imap;
pub mod maildir;
pub mod source;
