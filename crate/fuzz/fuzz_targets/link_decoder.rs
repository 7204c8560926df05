//! Any text decodes without a panic to valid params whose canonical link
//! decodes to the same params with no notice.
#![no_main]

use buflab::link::decode as decode_link;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let d = decode_link(text);
    assert_eq!(d.params.check(), Ok(()));
    let again = decode_link(&d.fragment);
    assert_eq!(again.params, d.params);
    assert!(again.notices.is_empty(), "canonical link gave notices: {:?}", again.notices);
});
