//! The command palette's matching: which entries a typed query finds and in what order. Each
//! word of the query must match a word of the entry's name, best as its start ("sti" →
//! "Stitch seams"), then inside it, then as letters in order ("stsm" → "Stitch seams");
//! entries used recently come first, the most recent at the top.
//!
//! Not for: the entries themselves (the app lists them) or the window (`ui::command_palette`).

/// How well `query` matches `name`: `None` when some word of the query matches no word of the
/// name; higher is better.
pub fn score(query: &str, name: &str) -> Option<i32> {
    let name = name.to_lowercase();
    let words: Vec<&str> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut total = 0;
    for q in query.to_lowercase().split_whitespace() {
        let best = words
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                // An earlier word counts a little more: "Stitch seams" before "Bake … stitch".
                let early = 5 - (i as i32).min(5);
                if w.starts_with(q) {
                    Some(300 + early)
                } else if w.contains(q) {
                    Some(200 + early)
                } else if in_order(q, w) {
                    Some(100 + early)
                } else {
                    None
                }
            })
            .max()
            .or_else(|| in_order(q, &name).then_some(50))?;
        total += best;
    }
    Some(total)
}

/// The letters of `q` appear in `w` in order.
fn in_order(q: &str, w: &str) -> bool {
    let mut letters = w.chars();
    q.chars().all(|c| letters.any(|l| l == c))
}

/// The indices of `names` that `query` finds, best first: the recently used (their names in
/// `recent`, most recent first) ahead of the others, then by [`score`], then in the given
/// order. An empty query finds every entry.
pub fn rank(query: &str, names: &[String], recent: &[String]) -> Vec<usize> {
    let mut found: Vec<(usize, usize, i32)> = names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| {
            let s = score(query, n)?;
            let r = recent.iter().position(|x| x == n).unwrap_or(usize::MAX);
            Some((i, r, s))
        })
        .collect();
    found.sort_by_key(|&(i, r, s)| (r, std::cmp::Reverse(s), i));
    found.into_iter().map(|(i, ..)| i).collect()
}

/// `name` put first in the list of recently used names, kept to `limit` names.
pub fn used(recent: &mut Vec<String>, name: &str, limit: usize) {
    recent.retain(|n| n != name);
    recent.insert(0, name.to_string());
    recent.truncate(limit);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_match_by_start_then_inside_then_in_order() {
        assert!(score("sti", "Stitch seams").is_some());
        assert!(score("stsm", "Stitch seams").is_some());
        assert!(score("seams stitch", "Stitch seams").is_some());
        assert_eq!(score("xyz", "Stitch seams"), None);
        assert_eq!(
            score("sti zzz", "Stitch seams"),
            None,
            "every word must match"
        );
        assert!(score("sti", "Stitch seams") > score("sti", "Tool: Liquid height"));
    }

    #[test]
    fn the_recently_used_come_first_and_the_empty_query_lists_all() {
        let list = names(&["Save", "Stitch seams", "Tool: Smooth", "Undo"]);
        assert_eq!(rank("s", &list, &[]), vec![0, 1, 2]);
        let recent = names(&["Tool: Smooth"]);
        assert_eq!(rank("s", &list, &recent), vec![2, 0, 1]);
        assert_eq!(rank("", &list, &recent), vec![2, 0, 1, 3]);
        assert_eq!(rank("sti", &list, &[]), vec![1]);
        let mut r = names(&["Undo", "Save"]);
        used(&mut r, "Save", 2);
        assert_eq!(r, names(&["Save", "Undo"]));
        used(&mut r, "Redo", 2);
        assert_eq!(r, names(&["Redo", "Save"]));
    }
}
