mod support;
use std::time::Duration;
use support::bot::{BotOptions, BotProcess};
use support::fake_discord::{Config, FakeDiscord};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let table = fake.add_channel("table-1");
    let dir = tempfile::tempdir().unwrap();
    let bot = BotProcess::spawn(&fake, dir.path(), &BotOptions::default());
    let r = fake.wait_ready(Duration::from_secs(20)).await;
    println!("ready: {r:?}\n{}", bot.log_tail(30));
    let cmd = fake.wait_command("sequence", Duration::from_secs(20)).await;
    println!("cmd: {}", serde_json::to_string(&cmd).unwrap().len());
    let i = fake.slash(&alice, table, "sequence start", &[("game", "classic")]).unwrap();
    let m = fake.wait_reply(&i, Duration::from_secs(5)).await;
    println!("start reply: {m:#?}");
    let j = fake.click(&bob, m.as_ref().unwrap().id, "sequence:join").unwrap();
    let m2 = fake.wait_reply(&j, Duration::from_secs(5)).await;
    println!("join reply: {m2:#?}");
    let b = fake.click(&alice, m.as_ref().unwrap().id, "sequence:begin").unwrap();
    let cb = fake.wait_callback(&b, Duration::from_secs(5)).await;
    println!("begin cb: {cb:#?}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for msg in fake.messages_in(table) { println!("CHANNEL: {:?} {:?} eph={}", msg.content, msg.custom_ids(), msg.is_ephemeral()); }
    for u in [&alice, &bob] { for msg in fake.dms_to(u.id) { println!("DM {}: {:?}", u.name, msg.content); } }
    for r in fake.requests() { println!("{} {} {} {}", r.method, r.path, r.status, r.via_tls); }
    println!("{}", bot.log_tail(30));
}
