//! A small `multipart/form-data` parser (RFC 7578), enough for what reqwest sends: parts with
//! `Content-Disposition: form-data; name="..."; filename="..."` and an optional `Content-Type`.

/// One part of a multipart body.
#[derive(Clone, Debug)]
pub struct Part {
    /// The form field name, e.g. `payload_json` or `files[0]`.
    pub name: String,
    /// The file name, for file parts.
    pub filename: Option<String>,
    /// The part's content type, if given.
    pub content_type: Option<String>,
    /// The raw content.
    pub data: Vec<u8>,
}

/// The boundary from a `multipart/form-data; boundary=...` content type.
pub fn boundary(content_type: &str) -> Option<String> {
    let (kind, params) = content_type.split_once(';')?;
    if !kind.trim().eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    params.split(';').find_map(|p| {
        let (key, value) = p.trim().split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| value.trim().trim_matches('"').to_string())
    })
}

/// Where `needle` first occurs in `haystack` at or after `from`. `memchr`'s search, not a comparison at
/// every offset: the bodies hold whole board pictures, and this crate is compiled unoptimized.
fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || from > haystack.len() {
        return None;
    }
    memchr::memmem::find(&haystack[from..], needle).map(|p| p + from)
}

/// Splits `body` into its parts; an error describes what is malformed.
pub fn parse(body: &[u8], boundary: &str) -> Result<Vec<Part>, String> {
    let delimiter = format!("--{boundary}").into_bytes();
    let mut parts = Vec::new();
    let mut pos = find(body, &delimiter, 0).ok_or("no opening boundary")? + delimiter.len();
    loop {
        if body.get(pos..pos + 2) == Some(b"--") {
            return Ok(parts);
        }
        if body.get(pos..pos + 2) != Some(b"\r\n") {
            return Err("boundary not followed by CRLF".into());
        }
        pos += 2;
        let headers_end = find(body, b"\r\n\r\n", pos).ok_or("part headers not terminated")?;
        let headers = std::str::from_utf8(&body[pos..headers_end])
            .map_err(|_| "part headers are not UTF-8")?;
        let content_start = headers_end + 4;
        let mut next_delimiter = b"\r\n".to_vec();
        next_delimiter.extend_from_slice(&delimiter);
        let content_end = find(body, &next_delimiter, content_start)
            .ok_or("part not terminated by a boundary")?;
        let mut part = Part {
            name: String::new(),
            filename: None,
            content_type: None,
            data: body[content_start..content_end].to_vec(),
        };
        for line in headers.split("\r\n") {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            if key.trim().eq_ignore_ascii_case("content-disposition") {
                for param in value.split(';').skip(1) {
                    if let Some((k, v)) = param.trim().split_once('=') {
                        let v = v.trim().trim_matches('"').to_string();
                        match k.trim() {
                            "name" => part.name = v,
                            "filename" => part.filename = Some(v),
                            _ => {}
                        }
                    }
                }
            } else if key.trim().eq_ignore_ascii_case("content-type") {
                part.content_type = Some(value.trim().to_string());
            }
        }
        if part.name.is_empty() {
            return Err("part without a name".into());
        }
        parts.push(part);
        pos = content_end + next_delimiter.len();
    }
}
