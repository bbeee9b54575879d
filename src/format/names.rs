//! Zero-terminated string lists (MTEX, MMDX, MWMO, MDNM, MONM) and their offset tables (MMID,
//! MWID).

/// Splits a block of zero-terminated strings. Returns the strings and whether the block is
/// exactly what [`join`] writes for them (no stray padding), so that callers can keep the raw
/// bytes otherwise.
pub fn split(block: &[u8]) -> (Vec<String>, bool) {
    // Sized up front: a block of N zero bytes is N empty names, and doubling growth would hold
    // up to three times their 24 bytes each while reallocating (docs/reliability.md, limits).
    let mut names = Vec::with_capacity(block.iter().filter(|&&b| b == 0).count() + 1);
    let mut start = 0;
    for (i, &b) in block.iter().enumerate() {
        if b == 0 {
            names.push(String::from_utf8_lossy(&block[start..i]).into_owned());
            start = i + 1;
        }
    }
    let trailing = start < block.len();
    if trailing {
        names.push(String::from_utf8_lossy(&block[start..]).into_owned());
    }
    let canonical = !trailing && join(&names) == block;
    (names, canonical)
}

/// Joins strings into a block, each followed by a zero.
pub fn join(names: &[String]) -> Vec<u8> {
    let mut out = Vec::with_capacity(names.iter().map(|n| n.len() + 1).sum());
    for n in names {
        out.extend_from_slice(n.as_bytes());
        out.push(0);
    }
    out
}

/// The offset of each string in the block [`join`] writes for `names`.
pub fn offsets(names: &[String]) -> Vec<u32> {
    let mut at = 0u32;
    names
        .iter()
        .map(|n| {
            let here = at;
            at += n.len() as u32 + 1;
            here
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_join_are_inverse_for_plain_blocks() {
        let block = b"a.blp\0tree.m2\0\0x\0";
        let (names, canonical) = split(block);
        assert_eq!(names, ["a.blp", "tree.m2", "", "x"]);
        assert!(canonical);
        assert_eq!(offsets(&names), [0, 6, 14, 15]);
    }

    #[test]
    fn unterminated_tail_is_kept_but_not_canonical() {
        let (names, canonical) = split(b"a\0b");
        assert_eq!(names, ["a", "b"]);
        assert!(!canonical);
    }
}
