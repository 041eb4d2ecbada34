//! The Gateway: Discord's WebSocket protocol (v10, JSON encoding).
//!
//! On connect the server sends HELLO (op 10). The client sends IDENTIFY (op 2) and gets READY and
//! GUILD_CREATE, or RESUME (op 6) and gets the dispatches it missed followed by RESUMED (or op 9 INVALID
//! SESSION if the session is unknown). Heartbeats (op 1) are answered with op 11. With `compress: true`
//! in IDENTIFY, READY and GUILD_CREATE go out as zlib-compressed binary frames, as Discord does for
//! large payloads (serenity inflates binary frames).

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use super::{Conn, Outgoing, Session, Shared, State};

/// Accepts WebSocket connections until the task is aborted.
pub async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        if let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(connection(stream, Arc::clone(&shared)));
        }
    }
}

fn zlib(text: &str) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text.as_bytes()).ok()?;
    encoder.finish().ok()
}

async fn connection(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
    let (conn_id, interval) = {
        let mut state = shared.lock();
        state.next_conn += 1;
        state.gateway.connections += 1;
        (state.next_conn, state.config.heartbeat_interval_ms)
    };
    shared.notify();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": interval}, "s": null, "t": null});
    if ws.send(Message::Text(hello.to_string())).await.is_ok() {
        loop {
            tokio::select! {
                out = rx.recv() => match out {
                    Some(Outgoing::Text(frame, interaction)) => {
                        // Counted before the send: the bot may answer before this task runs again.
                        if let Some(id) = interaction {
                            count_delivery(&shared, id, true);
                        }
                        if ws.send(Message::Text(frame.as_ref().clone())).await.is_err() {
                            if let Some(id) = interaction {
                                count_delivery(&shared, id, false);
                            }
                            break;
                        }
                    }
                    Some(Outgoing::Binary(bytes)) => {
                        if ws.send(Message::Binary(bytes)).await.is_err() {
                            break;
                        }
                    }
                    Some(Outgoing::Close(code, reason)) => {
                        let frame = CloseFrame { code: CloseCode::from(code), reason: reason.into() };
                        let _ = ws.close(Some(frame)).await;
                        break;
                    }
                    Some(Outgoing::Abort) | None => break,
                },
                incoming = ws.next() => match incoming {
                    Some(Ok(Message::Text(text))) => handle(&shared, conn_id, &tx, &text),
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => {}
                },
            }
        }
    }
    let mut state = shared.lock();
    for session in state.sessions.values_mut() {
        if session.conn.as_ref().is_some_and(|c| c.id == conn_id) {
            session.conn = None;
        }
        if session
            .pending_resume
            .as_ref()
            .is_some_and(|(id, _, _)| *id == conn_id)
        {
            session.pending_resume = None;
        }
    }
    drop(state);
    shared.notify();
}

/// Counts (or, when the send failed, takes back) one delivery of an interaction's dispatch.
fn count_delivery(shared: &Shared, id: u64, sent: bool) {
    let now = Instant::now();
    if let Some(i) = shared.lock().interactions.get_mut(&id) {
        if sent {
            i.deliveries += 1;
            i.dispatched.get_or_insert(now);
        } else {
            i.deliveries = i.deliveries.saturating_sub(1);
        }
    }
    shared.notify_keys(&[id]);
}

fn token_matches(state: &State, token: &Value) -> bool {
    token
        .as_str()
        .map(|t| t.strip_prefix("Bot ").unwrap_or(t))
        .is_some_and(|t| t == state.config.token)
}

fn handle(shared: &Shared, conn_id: u64, tx: &mpsc::UnboundedSender<Outgoing>, text: &str) {
    let Ok(payload) = serde_json::from_str::<Value>(text) else {
        let _ = tx.send(Outgoing::Close(
            4002,
            "Error while decoding payload.".into(),
        ));
        return;
    };
    let data = &payload["d"];
    let mut state = shared.lock();
    match payload["op"].as_u64() {
        Some(1) => {
            state.gateway.heartbeats += 1;
            let _ = tx.send(Outgoing::Text(
                Arc::new(json!({"op": 11, "d": null, "s": null, "t": null}).to_string()),
                None,
            ));
        }
        Some(2) => identify(&mut state, conn_id, tx, data),
        Some(6) => resume(&mut state, conn_id, tx, data),
        Some(3 | 4 | 8 | 31) => {}
        _ => {
            let _ = tx.send(Outgoing::Close(4001, "Unknown opcode.".into()));
        }
    }
    drop(state);
    shared.notify();
}

fn identify(state: &mut State, conn_id: u64, tx: &mpsc::UnboundedSender<Outgoing>, data: &Value) {
    if !token_matches(state, &data["token"]) {
        let _ = tx.send(Outgoing::Close(4004, "Authentication failed.".into()));
        return;
    }
    // `shard: [id, total]`, as Discord reads it: without it, one shard of one.
    let shard = match data["shard"].as_array().map(Vec::as_slice) {
        None => Some([0, 1]),
        Some([id, total]) => match (id.as_u64(), total.as_u64()) {
            (Some(id), Some(total)) if id < total => u32::try_from(id)
                .ok()
                .zip(u32::try_from(total).ok())
                .map(|(id, total)| [id, total]),
            _ => None,
        },
        Some(_) => None,
    };
    let Some(shard) = shard else {
        state.gateway.invalid_shards += 1;
        let _ = tx.send(Outgoing::Close(4010, "Invalid shard.".into()));
        return;
    };
    state.gateway.identifies += 1;
    state.gateway.identified_shards.push(shard);
    let mut logged = data.clone();
    logged["token"] = json!("(hidden)");
    state.gateway.last_identify = logged;
    let compress = data["compress"] == true && state.config.compress;
    let session_id = format!(
        "{:032x}",
        state.snowflake().wrapping_mul(0x2545_F491_4F6C_DD1D)
    );
    // A new IDENTIFY for a shard replaces that shard's session.
    if let Some(old) = state
        .sessions
        .get_mut(&shard[0])
        .and_then(|s| s.conn.take())
    {
        if old.id != conn_id {
            let _ = old
                .tx
                .send(Outgoing::Close(4000, "Session replaced.".into()));
        }
    }
    state.sessions.insert(
        shard[0],
        Session {
            id: session_id.clone(),
            shard,
            seq: 0,
            history: Default::default(),
            hold_resume: false,
            pending_resume: None,
            conn: Some(Conn {
                id: conn_id,
                tx: tx.clone(),
            }),
        },
    );
    let guilds = state.guilds_of_shard(shard);
    let bot = state.bot().clone();
    let mut user = bot.json();
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    user["flags"] = json!(0);
    user["email"] = Value::Null;
    let unavailable: Vec<Value> = guilds
        .iter()
        .map(|g| json!({"id": g.to_string(), "unavailable": true}))
        .collect();
    let ready = json!({
        "v": 10,
        "user": user,
        "guilds": unavailable,
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": state.gateway_url.clone(),
        "shard": shard,
        "application": {"id": state.config.application_id.to_string(), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["local"],
        "user_settings": {},
        "_trace": ["[\"fake-discord-gateway\",{\"micros\":1}]"],
    });
    send_dispatch(state, shard[0], "READY", ready, compress);
    for guild in guilds {
        let create = state.guild_create_of(guild);
        send_dispatch(state, shard[0], "GUILD_CREATE", create, compress);
    }
}

/// Dispatches an event on the session of `shard`, compressed if asked (the replay history keeps the
/// text).
fn send_dispatch(state: &mut State, shard: u32, event: &str, data: Value, compress: bool) {
    if !compress {
        state.dispatch_on(shard, event, data, None);
        return;
    }
    // Queue it for replay without sending, then send the compressed frame.
    let conn = state.sessions.get_mut(&shard).and_then(|s| s.conn.take());
    state.dispatch_on(shard, event, data, None);
    if let Some(session) = state.sessions.get_mut(&shard) {
        if let Some((_, frame, _)) = session.history.back() {
            if let (Some(conn), Some(bytes)) = (&conn, zlib(frame)) {
                let _ = conn.tx.send(Outgoing::Binary(bytes));
            }
        }
        session.conn = conn;
    }
}

pub(crate) fn resume(
    state: &mut State,
    conn_id: u64,
    tx: &mpsc::UnboundedSender<Outgoing>,
    data: &Value,
) {
    let wanted = data["session_id"].as_str().unwrap_or("");
    if let Some(session) = state
        .sessions
        .values_mut()
        .find(|s| s.id == wanted && s.hold_resume)
    {
        session.pending_resume = Some((conn_id, tx.clone(), data.clone()));
        return;
    }
    let token_ok = token_matches(state, &data["token"]);
    let seq = data["seq"].as_u64();
    let accepted = state.sessions.values_mut().find(|s| {
        token_ok
            && data["session_id"] == s.id.as_str()
            && seq.is_some_and(|q| {
                q <= s.seq
                    && s.history
                        .front()
                        .is_none_or(|(first, _, _)| *first <= q + 1)
            })
    });
    let Some(session) = accepted else {
        state.gateway.invalid_sessions += 1;
        let _ = tx.send(Outgoing::Text(
            Arc::new(json!({"op": 9, "d": false, "s": null, "t": null}).to_string()),
            None,
        ));
        return;
    };
    let from = seq.unwrap_or(0);
    if let Some(old) = session.conn.take() {
        if old.id != conn_id {
            let _ = old.tx.send(Outgoing::Abort);
        }
    }
    let mut replayed = 0;
    for (s, frame, interaction) in &session.history {
        if *s > from {
            let _ = tx.send(Outgoing::Text(Arc::clone(frame), *interaction));
            replayed += 1;
        }
    }
    session.conn = Some(Conn {
        id: conn_id,
        tx: tx.clone(),
    });
    let shard = session.shard[0];
    state.gateway.resumes += 1;
    state.gateway.replayed += replayed;
    state.dispatch_on(
        shard,
        "RESUMED",
        json!({"_trace": ["fake-discord-gateway"]}),
        None,
    );
}
