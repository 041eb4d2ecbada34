//! Reading files the bot and its tools are given (configuration, records, credentials): never more
//! than a cap, and only UTF-8 text. Used by `cli` and `discord` alike, so neither imports the other
//! for it.

use std::io::Read;

/// Reads at most `cap` bytes of text: `None` when there is more.
pub fn read_capped(reader: impl Read, cap: u64) -> std::io::Result<Option<String>> {
    let mut text = String::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_string(&mut text)?;
    if text.len() as u64 > cap {
        return Ok(None);
    }
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use std::io::ErrorKind;

    use super::*;

    #[test]
    fn input_is_capped() {
        let read = |bytes: &[u8], cap| read_capped(bytes, cap).expect("reads");
        assert_eq!(read(b"abcd", 4).as_deref(), Some("abcd"));
        assert_eq!(read(b"abcde", 4), None);
        assert_eq!(read(b"", 4).as_deref(), Some(""));
        let err = read_capped(&[0xff, 0xfe][..], 4).expect_err("not UTF-8");
        assert_eq!(err.kind(), ErrorKind::InvalidData);
    }
}
