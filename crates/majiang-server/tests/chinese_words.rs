//! The Chinese catalogues build sentences from their own words: no space between Chinese
//! characters or around a placeholder inside a Chinese sentence (the page puts one only where
//! a filled-in Latin name or number meets Chinese), and 繁體中文 says 上 for a chow, at the
//! table, on the score page and in the lobby alike.

use serde_json::Value;

fn catalogue(text: &str) -> Vec<(String, String)> {
    let cat: Value = serde_json::from_str(text).unwrap();
    cat.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
        .collect()
}

fn chinese(c: char) -> bool {
    ('\u{3400}'..='\u{9fff}').contains(&c) || ('\u{f900}'..='\u{faff}').contains(&c)
}

/// The places in `text` where a space stands between two Chinese characters, or between one
/// and a placeholder.
fn stray_spaces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for i in 1..chars.len().saturating_sub(1) {
        if chars[i] != ' ' {
            continue;
        }
        let (a, b) = (chars[i - 1], chars[i + 1]);
        let joins = (chinese(a) || a == '}') && (chinese(b) || b == '{');
        let touches_chinese = chinese(a) || chinese(b);
        if joins && touches_chinese {
            out.push(
                chars[i.saturating_sub(4)..(i + 5).min(chars.len())]
                    .iter()
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn chinese_sentences_carry_no_stray_spaces() {
    for (lang, text) in [
        ("zh", include_str!("../web/i18n/zh.json")),
        ("zh-Hant", include_str!("../web/i18n/zh-Hant.json")),
    ] {
        let bad: Vec<String> = catalogue(text)
            .into_iter()
            .filter(|(_, v)| !stray_spaces(v).is_empty())
            .map(|(k, v)| format!("{lang} {k}: {v:?}"))
            .collect();
        assert!(bad.is_empty(), "{bad:#?}");
    }
    assert_eq!(stray_spaces("{who} 打出 {tile}").len(), 2);
    assert!(stray_spaces("{who}打出{tile}").is_empty());
    assert!(stray_spaces("({shares}) × 2 = {amount}").is_empty());
}

#[test]
fn traditional_chinese_says_shang_for_a_chow_everywhere() {
    let hant = catalogue(include_str!("../web/i18n/zh-Hant.json"));
    let eats: Vec<&(String, String)> = hant.iter().filter(|(_, v)| v.contains('吃')).collect();
    assert!(eats.is_empty(), "吃 in 繁體中文: {eats:?}");
    let find = |key: &str| hant.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    for key in ["meld.chow", "companion.mode.chow"] {
        assert_eq!(find(key).as_deref(), Some("上"), "{key}");
    }
    assert!(find("lobby.claim_timer").unwrap().contains("上碰"));
}

#[test]
fn the_page_knows_every_default_bot_name() {
    // web/js/i18n.js reads a default bot name in any catalogue's words as the viewer's.
    let page = include_str!("../web/js/i18n.js");
    for text in [
        include_str!("../web/i18n/en.json"),
        include_str!("../web/i18n/zh.json"),
        include_str!("../web/i18n/zh-Hant.json"),
    ] {
        let cat: Value = serde_json::from_str(text).unwrap();
        let word = cat["lobby.default_bot"]
            .as_str()
            .unwrap()
            .replace("{n}", "");
        let word = word.trim();
        assert!(
            page.contains("(?:Bot|机器人|電腦)") && ["Bot", "机器人", "電腦"].contains(&word),
            "{word:?} is not among the names web/js/i18n.js knows"
        );
    }
}

#[test]
fn the_table_builds_its_sentences_from_the_catalogue_not_with_spaces() {
    // Words joined with " " read "吃四万 五万 六万" and "Ann （你）" in Chinese: the table's
    // scripts join lists with the catalogue's separator and fill a sentence's placeholders
    // instead (seat_browser.rs reads the results in Chinese).
    for (file, text) in [
        ("words.js", include_str!("../web/js/words.js")),
        ("table.js", include_str!("../web/js/table.js")),
        ("result.js", include_str!("../web/js/result.js")),
        ("board.js", include_str!("../web/js/board.js")),
        ("announce.js", include_str!("../web/js/announce.js")),
        ("waiting.js", include_str!("../web/js/waiting.js")),
    ] {
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") || code.starts_with('*') || code.starts_with("/**") {
                continue;
            }
            for joined in [
                ".join(\" \")",
                "+ \" \" + t(",
                "+ \" \" + nameOf(",
                "+ \" \" + playerName(",
            ] {
                assert!(
                    !line.contains(joined),
                    "web/js/{file}:{}: words joined with a space ({joined}): {code}",
                    n + 1
                );
            }
        }
    }
}
