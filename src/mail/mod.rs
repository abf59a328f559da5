//! The mail edge, inbound side: raw RFC 5322 bytes in, a typed message and
//! the order lines a player wrote out. Parsing takes `&[u8]` and touches no
//! file, store or network; the sources (Maildir, IMAP, stdin) only fetch bytes.

pub mod body;
pub mod dkim;
pub mod flowed;
pub mod html;
pub mod inbound;

pub use body::{OrderText, order_text};
pub use inbound::{Automatic, Inbound, InboundError, Limits, parse, parse_headers};
