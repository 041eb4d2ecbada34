//! A server's own web page: off by default; `web_page` on makes an unguessable token (shown to the
//! admin as a link when the pages' address is set), off forgets it at once, on again makes a new
//! one; the page's data lists the leaderboard by names and the finished games with their replays.

use super::kit::{ask_in, text_of};
use super::replay::{play_to_the_end, tables as new_tables};
use crate::service::{Command, GuildId, ServerSettings, SettingsRequest, Tables};

/// The server of [`play_to_the_end`]'s games.
const GUILD: GuildId = GuildId(88);

fn page(on: bool) -> Command {
    Command::Settings(SettingsRequest {
        changes: ServerSettings {
            web_page: Some(on),
            // Not the asker's to set: ignored.
            web_page_token: Some(format!("{:016x}{}", GUILD.0, "0".repeat(32))),
            ..ServerSettings::default()
        },
        reset: false,
    })
}

fn token(tables: &Tables) -> Option<String> {
    tables.server_settings(Some(GUILD)).web_page_token
}

#[test]
fn the_page_is_off_by_default_and_its_token_lives_while_it_is_on() {
    let tables = new_tables(5);
    tables.set_web_base(Some("https://sequence.example.org".into()));
    assert_eq!(token(&tables), None);
    let shown = text_of(&ask_in(
        &tables,
        GUILD,
        10,
        1,
        Command::Settings(SettingsRequest::default()),
    ));
    assert!(!shown.contains("/s/"), "{shown}");
    assert!(
        shown.contains("the server's own page (leaderboard, recent games, profiles): off"),
        "{shown}"
    );

    // Not an admin: refused, nothing changes.
    assert!(ask_in(&tables, GUILD, 10, 2, page(true)).is_refusal());
    assert_eq!(token(&tables), None);

    let on = ask_in(&tables, GUILD, 10, 1, page(true));
    assert!(!on.is_refusal(), "{on:?}");
    let first = token(&tables).expect("a token");
    assert_eq!(first.len(), 48);
    assert!(first.starts_with(&format!("{:016x}", GUILD.0)));
    assert_ne!(
        &first[16..],
        "0".repeat(32),
        "the asker's token is not taken"
    );
    assert!(text_of(&on).contains(&format!("https://sequence.example.org/s/{first}")));
    assert_eq!(tables.guild_of_page_token(&first), Some(GUILD));

    // On again: the same token (the link stays).
    assert!(!ask_in(&tables, GUILD, 10, 1, page(true)).is_refusal());
    assert_eq!(token(&tables).as_deref(), Some(first.as_str()));

    // Anything else finds nothing.
    let mut near = first.clone();
    near.replace_range(47.., if first.ends_with('0') { "1" } else { "0" });
    for wrong in [
        near.as_str(),
        &first[..47],
        "",
        &first.to_uppercase(),
        &format!("{first}0"),
    ] {
        assert_eq!(tables.guild_of_page_token(wrong), None, "{wrong}");
    }

    // Off: forgotten at once.
    let off = ask_in(&tables, GUILD, 10, 1, page(false));
    assert!(!off.is_refusal(), "{off:?}");
    assert!(!text_of(&off).contains("/s/"));
    assert_eq!(token(&tables), None);
    assert_eq!(tables.guild_of_page_token(&first), None);
    assert!(tables.server_page(&first).is_none());

    // On again: a new token; the old link stays dead.
    assert!(!ask_in(&tables, GUILD, 10, 1, page(true)).is_refusal());
    let second = token(&tables).expect("a new token");
    assert_ne!(second, first);
    assert_eq!(tables.guild_of_page_token(&first), None);
    assert_eq!(tables.guild_of_page_token(&second), Some(GUILD));
}

#[test]
fn without_the_address_the_link_is_not_shown_but_the_page_is_on() {
    let tables = new_tables(6);
    let on = ask_in(&tables, GUILD, 10, 1, page(true));
    assert!(!text_of(&on).contains("/s/"), "{}", text_of(&on));
    assert!(
        text_of(&on).contains("the server's own page (leaderboard, recent games, profiles): on")
    );
    assert!(token(&tables).is_some());
}

#[test]
fn the_page_lists_the_leaderboard_by_name_and_the_games_with_their_replays() {
    let tables = new_tables(7);
    play_to_the_end(&tables, 120, 7);
    assert!(!ask_in(&tables, GUILD, 10, 1, page(true)).is_refusal());
    let token = token(&tables).expect("a token");
    let page = tables.server_page(&token).expect("the page");
    assert_eq!(page.name, None);
    assert_eq!(page.games.len(), 1, "{page:?}");
    let game = &page.games[0];
    assert_eq!(game.variant, "kids");
    let mut names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["User1", "User2"]);
    assert_eq!(game.players.iter().filter(|p| p.won).count(), 1);
    let replay = game.replay.as_deref().expect("a replay link");
    let game_token = replay.strip_prefix("/g/").expect("a page");
    assert!(tables.finished_of_web_token(game_token, None).is_some());
    assert_eq!(page.leaderboard.len(), 2, "{page:?}");
    assert_eq!(page.leaderboard[0].rank, 1);
    assert!(page.leaderboard.iter().all(|p| p.games == 1));
    assert_eq!(page.leaderboard.iter().map(|p| p.wins).sum::<u32>(), 1);
    // Names, never ids.
    let json = serde_json::to_string(&page).expect("json");
    assert!(
        !json.contains("user_id") && !json.contains("\"88\""),
        "{json}"
    );
    // With the server's game pages off (`web_links`), its replays answer nothing: none is linked,
    // and the page itself stays.
    let off = Command::Settings(SettingsRequest {
        changes: ServerSettings {
            web_links: Some(false),
            ..ServerSettings::default()
        },
        reset: false,
    });
    assert!(!ask_in(&tables, GUILD, 10, 1, off).is_refusal());
    assert!(tables.finished_of_web_token(game_token, None).is_none());
    let page = tables.server_page(&token).expect("the page");
    assert_eq!(page.games.len(), 1);
    assert_eq!(page.games[0].replay, None);
}
