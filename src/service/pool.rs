//! One bounded pool for every computer move of the process: at most `threads` searches run at once (by
//! default one fewer than the machine's cores, at least one), on threads of their own, so a search never
//! blocks the async runtime nor takes every core from the people waiting for answers. Moves waiting for a
//! thread are served in the order their turns became due, whichever server or channel they come from, so a
//! server with many computer games cannot starve the others. Background work (the analysis of a finished
//! game, in small pieces) runs only when no computer move is waiting: a live move queued after it is
//! served first, and waits at most for the pieces already running.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::ids::Timestamp;

/// Why a move did not come back from the pool.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PoolError {
    /// The search panicked (a bug); the panic was caught on the pool's thread.
    #[error("the computer player's search failed")]
    Failed,
    /// The pool was shut down before the search ran.
    #[error("the computer players were stopped")]
    Stopped,
    /// The operating system refused a thread for the pool.
    #[error("cannot start a thread for the computer players: {0}")]
    NoThread(String),
}

/// What the pool has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Searches finished (background work included).
    pub done: u64,
    /// Pieces of background work finished.
    pub background_done: u64,
    /// Searches waiting for a thread now.
    pub waiting: usize,
    /// Searches running now.
    pub running: usize,
    /// The most searches that ever ran at once.
    pub most_at_once: usize,
    /// The longest time a live move's search waited for a thread, in milliseconds.
    pub longest_queue_ms: u64,
    /// The longest time from a turn becoming due to its move being chosen, in milliseconds.
    pub longest_turn_ms: u64,
    /// Searches finished beside the pool (hints, [`SearchPool::run_aside`]).
    pub aside_done: u64,
}

/// A search waiting for a thread.
struct Job {
    /// Background work, served after every live move.
    background: bool,
    /// When the turn became due (earlier first).
    due: Timestamp,
    /// Arrival order among equal `due`s.
    seq: u64,
    /// When it was queued.
    queued: std::time::Instant,
    /// The computer level searching (the label of its wait and run times).
    level: &'static str,
    /// The search; what it returns delivers the result (after the pool has counted it).
    work: Work,
}

/// A search to run, returning how to hand its result over.
type Work = Box<dyn FnOnce() -> Box<dyn FnOnce() + Send> + Send>;

impl PartialEq for Job {
    fn eq(&self, other: &Job) -> bool {
        (self.background, self.due, self.seq) == (other.background, other.due, other.seq)
    }
}

impl Eq for Job {}

impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Job) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Job {
    /// Reversed: `BinaryHeap` pops its greatest, and a live move before background work, the earliest
    /// due turn first, must come first.
    fn cmp(&self, other: &Job) -> Ordering {
        (other.background, other.due, other.seq).cmp(&(self.background, self.due, self.seq))
    }
}

#[derive(Default)]
struct State {
    queue: BinaryHeap<Job>,
    next_seq: u64,
    /// Threads started (they live until the pool is dropped).
    threads: usize,
    /// Threads waiting for work.
    idle: usize,
    running: usize,
    stopping: bool,
    stats: PoolStats,
}

struct Inner {
    state: Mutex<State>,
    wake: Condvar,
    limit: usize,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Jobs run outside the lock and panics are caught, so a poisoned lock still holds consistent data.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The pool. Threads are started as work arrives, up to the limit, and stop when the pool is dropped.
pub struct SearchPool {
    inner: Arc<Inner>,
    /// Searches nobody's turn waits for (hints).
    aside: Arc<Aside>,
}

/// Searches nobody's turn waits for (a player's hint): one at a time, in the order asked, on a thread
/// of their own that runs at the lowest CPU priority the system gives. They never take one of the
/// pool's threads, so a computer move never waits for them, and the system gives the computer moves'
/// threads the CPU first.
#[derive(Default)]
struct Aside {
    state: Mutex<AsideState>,
    wake: Condvar,
    done: std::sync::atomic::AtomicU64,
}

#[derive(Default)]
struct AsideState {
    queue: std::collections::VecDeque<Box<dyn FnOnce() + Send>>,
    started: bool,
    stopping: bool,
}

impl Aside {
    fn lock(&self) -> MutexGuard<'_, AsideState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Lowers the calling thread's CPU priority to the least (Linux: each thread has its own nice value).
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority have no memory effects; a failure only leaves the priority.
        let failed = unsafe {
            let tid = libc::syscall(libc::SYS_gettid);
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19) != 0
        };
        if failed {
            tracing::warn!("cannot lower the priority of the hint thread");
        }
    }
}

fn aside_worker(aside: &Aside) {
    lowest_priority();
    let mut state = aside.lock();
    loop {
        if let Some(job) = state.queue.pop_front() {
            drop(state);
            job();
            state = aside.lock();
            continue;
        }
        if state.stopping {
            return;
        }
        state = aside.wake.wait(state).unwrap_or_else(|e| e.into_inner());
    }
}

impl std::fmt::Debug for SearchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchPool")
            .field("threads", &self.inner.limit)
            .field("stats", &self.stats())
            .finish()
    }
}

/// One fewer than the machine's cores, at least one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

impl SearchPool {
    /// A pool running at most `threads` searches at once (`0`: [`default_threads`]).
    pub fn new(threads: usize) -> SearchPool {
        let limit = if threads == 0 {
            default_threads()
        } else {
            threads
        };
        SearchPool {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                wake: Condvar::new(),
                limit,
            }),
            aside: Arc::new(Aside::default()),
        }
    }

    /// Runs `work` (a search no turn waits for: a hint; `label` names it in the metrics) beside the
    /// pool ([`Aside`]): after the ones asked before it, on the thread for such searches at the
    /// lowest CPU priority, never on one of the pool's threads. Waiting does not block the async
    /// runtime.
    pub async fn run_aside<T, F>(&self, label: &'static str, work: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let aside = self.aside.clone();
        // Their wait is not a computer move's (`sequence_search_wait_seconds` is for those): only
        // their run time is measured.
        let job = move || {
            let started = std::time::Instant::now();
            let result = catch_unwind(AssertUnwindSafe(work)).map_err(|_| PoolError::Failed);
            metrics::histogram!("sequence_search_run_seconds", "level" => label)
                .record(started.elapsed());
            // Counted before its caller hears of it.
            aside
                .done
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let _ = tx.send(result);
        };
        {
            let mut state = self.aside.lock();
            if state.stopping {
                return Err(PoolError::Stopped);
            }
            if !state.started {
                let aside = self.aside.clone();
                std::thread::Builder::new()
                    .name("hints".into())
                    .spawn(move || aside_worker(&aside))
                    .map_err(|e| PoolError::NoThread(e.to_string()))?;
                state.started = true;
            }
            state.queue.push_back(Box::new(job));
        }
        self.aside.wake.notify_one();
        rx.await.unwrap_or(Err(PoolError::Stopped))
    }

    /// The most searches that run at once.
    pub fn threads(&self) -> usize {
        self.inner.limit
    }

    /// What the pool has done so far.
    pub fn stats(&self) -> PoolStats {
        let state = self.inner.lock();
        PoolStats {
            waiting: state.queue.len(),
            running: state.running,
            aside_done: self.aside.done.load(std::sync::atomic::Ordering::Relaxed),
            ..state.stats
        }
    }

    /// Runs `work` (a search) on one of the pool's threads once every turn that became due before `due`
    /// has had its thread, and returns its result. Waiting does not block the async runtime.
    pub async fn run<T, F>(&self, due: Timestamp, work: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.run_for("none", due, work).await
    }

    /// [`SearchPool::run`] for a computer player of `level` (the label of the pool's metrics:
    /// `sequence_search_wait_seconds` and `sequence_search_run_seconds`).
    pub async fn run_for<T, F>(
        &self,
        level: &'static str,
        due: Timestamp,
        work: F,
    ) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.run_job(level, due, false, work).await
    }

    /// Runs background `work` (labelled `label` in the metrics) on one of the pool's threads when no
    /// computer move is waiting, and returns its result. Keep each piece short (one search): a live move
    /// that arrives while it runs waits for it.
    pub async fn run_background<T, F>(&self, label: &'static str, work: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.run_job(label, Timestamp::now(), true, work).await
    }

    /// Submits `work` (live or background) and waits for its result; a panic in it is reported as
    /// [`PoolError::Failed`].
    async fn run_job<T, F>(
        &self,
        label: &'static str,
        due: Timestamp,
        background: bool,
        work: F,
    ) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job = move || -> Box<dyn FnOnce() + Send> {
            let result = catch_unwind(AssertUnwindSafe(work)).map_err(|_| PoolError::Failed);
            Box::new(move || {
                // The caller may have gone (its task was cancelled): nothing to tell then.
                let _ = tx.send(result);
            })
        };
        self.submit(label, due, background, Box::new(job))?;
        rx.await.unwrap_or(Err(PoolError::Stopped))
    }

    fn submit(
        &self,
        level: &'static str,
        due: Timestamp,
        background: bool,
        work: Work,
    ) -> Result<(), PoolError> {
        let mut state = self.inner.lock();
        if state.stopping {
            return Err(PoolError::Stopped);
        }
        let seq = state.next_seq;
        state.next_seq += 1;
        state.queue.push(Job {
            background,
            due,
            seq,
            queued: std::time::Instant::now(),
            level,
            work,
        });
        metrics::gauge!("sequence_search_queue_length").set(state.queue.len() as f64);
        // A new thread when more searches wait than idle threads can take (an idle thread woken for an
        // earlier search may not have taken it yet), and the limit allows one.
        if state.queue.len() > state.idle && state.threads < self.inner.limit {
            let inner = self.inner.clone();
            let number = state.threads;
            let spawned = std::thread::Builder::new()
                .name(format!("computer-{number}"))
                .spawn(move || worker(&inner));
            match spawned {
                Ok(_) => state.threads += 1,
                Err(e) if state.threads == 0 => {
                    // Nobody would ever run it: take it back.
                    state.queue.retain(|j| j.seq != seq);
                    return Err(PoolError::NoThread(e.to_string()));
                }
                // The threads already there will get to it.
                Err(e) => tracing::warn!("cannot start another computer thread: {e}"),
            }
        }
        drop(state);
        self.inner.wake.notify_one();
        Ok(())
    }
}

impl Drop for SearchPool {
    fn drop(&mut self) {
        let mut state = self.inner.lock();
        state.stopping = true;
        // Searches not started are dropped: their callers hear `Stopped`.
        state.queue.clear();
        drop(state);
        self.inner.wake.notify_all();
        let mut aside = self.aside.lock();
        aside.stopping = true;
        aside.queue.clear();
        drop(aside);
        self.aside.wake.notify_all();
    }
}

fn worker(inner: &Inner) {
    let mut state = inner.lock();
    loop {
        if let Some(job) = state.queue.pop() {
            metrics::gauge!("sequence_search_queue_length").set(state.queue.len() as f64);
            let started = std::time::Instant::now();
            let waited = started.saturating_duration_since(job.queued);
            metrics::histogram!("sequence_search_wait_seconds", "level" => job.level)
                .record(waited);
            let waited = u64::try_from(waited.as_millis()).unwrap_or(u64::MAX);
            // Background work waits by design: only live moves count in the waiting figures.
            if !job.background {
                state.stats.longest_queue_ms = state.stats.longest_queue_ms.max(waited);
            }
            state.running += 1;
            state.stats.most_at_once = state.stats.most_at_once.max(state.running);
            drop(state);
            let level = job.level;
            let deliver = (job.work)();
            metrics::histogram!("sequence_search_run_seconds", "level" => level)
                .record(started.elapsed());
            let done = Timestamp::now();
            state = inner.lock();
            state.running -= 1;
            state.stats.done += 1;
            if job.background {
                state.stats.background_done += 1;
            } else {
                let turn = done.0.saturating_sub(job.due.0);
                state.stats.longest_turn_ms = state.stats.longest_turn_ms.max(turn);
            }
            drop(state);
            deliver();
            state = inner.lock();
            continue;
        }
        if state.stopping {
            return;
        }
        state.idle += 1;
        state = inner.wake.wait(state).unwrap_or_else(|e| e.into_inner());
        state.idle -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
    use std::time::Duration;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn at_most_the_limit_runs_at_once_and_every_search_is_answered() {
        let pool = SearchPool::new(2);
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let results = runtime().block_on(async {
            let searches = (0..8u64).map(|i| {
                let (now, most) = (now.clone(), most.clone());
                pool.run(Timestamp(i), move || {
                    let running = now.fetch_add(1, AtomicOrdering::SeqCst) + 1;
                    most.fetch_max(running, AtomicOrdering::SeqCst);
                    std::thread::sleep(Duration::from_millis(30));
                    now.fetch_sub(1, AtomicOrdering::SeqCst);
                    i * 10
                })
            });
            futures_join(searches).await
        });
        assert_eq!(
            results,
            (0..8).map(|i| Ok(i * 10)).collect::<Vec<_>>(),
            "every search answers its own caller"
        );
        assert_eq!(
            most.load(AtomicOrdering::SeqCst),
            2,
            "two at once, never more"
        );
        let stats = pool.stats();
        assert_eq!(stats.done, 8);
        assert_eq!(stats.most_at_once, 2);
        assert_eq!((stats.waiting, stats.running), (0, 0));
        assert!(stats.longest_queue_ms >= 30, "{stats:?}");
    }

    /// Runs the futures at once and returns their outputs in order.
    async fn futures_join<F: std::future::Future>(
        futures: impl Iterator<Item = F>,
    ) -> Vec<F::Output> {
        futures_util::future::join_all(futures).await
    }

    #[test]
    fn waiting_searches_run_in_the_order_their_turns_became_due() {
        let pool = SearchPool::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        runtime().block_on(async {
            // The one thread is busy until released; meanwhile turns queue up out of order.
            let blocker = pool.run(Timestamp(0), move || {
                let _ = gate.recv();
            });
            let queued = [50u64, 30, 90, 10, 30].into_iter().map(|due| {
                let order = order.clone();
                pool.run(Timestamp(due), move || {
                    order.lock().unwrap().push(due);
                })
            });
            let all = async {
                // Let every search reach the queue, then free the thread.
                tokio::time::sleep(Duration::from_millis(50)).await;
                release.send(()).unwrap();
            };
            let mut futures: Vec<std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>> =
                vec![Box::pin(async {
                    blocker.await.unwrap();
                })];
            for q in queued {
                futures.push(Box::pin(async {
                    q.await.unwrap();
                }));
            }
            futures.push(Box::pin(all));
            futures_join(futures.into_iter()).await;
        });
        assert_eq!(*order.lock().unwrap(), vec![10, 30, 30, 50, 90]);
    }

    #[test]
    fn a_live_move_queued_after_background_work_is_served_first() {
        let pool = SearchPool::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        runtime().block_on(async {
            let blocker = pool.run(Timestamp(0), move || {
                let _ = gate.recv();
            });
            let mut futures: Vec<std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>> =
                vec![Box::pin(async {
                    blocker.await.unwrap();
                })];
            // Three pieces of analysis queue first, then a live move whose turn is due far later.
            for piece in ["analysis 1", "analysis 2", "analysis 3"] {
                let order = order.clone();
                let run = pool.run_background("analysis", move || {
                    order.lock().unwrap().push(piece);
                });
                futures.push(Box::pin(async {
                    run.await.unwrap();
                }));
            }
            let live_order = order.clone();
            let live = pool.run(Timestamp::now().after(Duration::from_secs(60)), move || {
                live_order.lock().unwrap().push("live");
            });
            futures.push(Box::pin(async {
                live.await.unwrap();
            }));
            futures.push(Box::pin(async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                release.send(()).unwrap();
            }));
            futures_join(futures.into_iter()).await;
        });
        assert_eq!(
            *order.lock().unwrap(),
            vec!["live", "analysis 1", "analysis 2", "analysis 3"]
        );
        let stats = pool.stats();
        assert_eq!((stats.done, stats.background_done), (5, 3));
    }

    #[test]
    fn a_search_never_blocks_the_async_runtime() {
        let pool = SearchPool::new(1);
        runtime().block_on(async {
            let started = std::time::Instant::now();
            let search = pool.run(Timestamp(0), || {
                std::thread::sleep(Duration::from_millis(400))
            });
            let timer = async {
                tokio::time::sleep(Duration::from_millis(20)).await;
                started.elapsed()
            };
            let mut timer_done = None;
            let both: Vec<std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>> = vec![
                Box::pin(async {
                    search.await.unwrap();
                }),
                Box::pin(async {
                    timer_done = Some(timer.await);
                }),
            ];
            futures_join(both.into_iter()).await;
            // On a one-thread runtime the timer fires while the search still runs elsewhere.
            let fired = timer_done.unwrap();
            assert!(
                fired < Duration::from_millis(300),
                "the timer waited {fired:?}"
            );
        });
    }

    #[test]
    fn a_burst_after_a_quiet_spell_still_gets_every_thread() {
        let pool = SearchPool::new(2);
        runtime().block_on(async {
            // One thread exists and is idle; then two searches come at once.
            assert_eq!(pool.run(Timestamp(0), || 1).await, Ok(1));
            let slow = |due| {
                pool.run(Timestamp(due), || {
                    std::thread::sleep(Duration::from_millis(100));
                })
            };
            let (a, b) = futures_util::future::join(slow(1), slow(2)).await;
            assert_eq!((a, b), (Ok(()), Ok(())));
        });
        assert_eq!(pool.stats().most_at_once, 2, "{:?}", pool.stats());
    }

    #[test]
    fn a_panicking_search_is_reported_and_the_pool_goes_on() {
        let pool = SearchPool::new(1);
        runtime().block_on(async {
            let failed: Result<u32, PoolError> = pool.run(Timestamp(0), || panic!("a bug")).await;
            assert_eq!(failed, Err(PoolError::Failed));
            assert_eq!(pool.run(Timestamp(1), || 7).await, Ok(7));
        });
    }

    #[test]
    fn the_default_leaves_a_core_for_everything_else() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(default_threads(), (cores - 1).max(1));
        assert_eq!(SearchPool::new(0).threads(), default_threads());
        assert_eq!(SearchPool::new(3).threads(), 3);
    }

    /// Issue 33, point 3: a hint runs beside the pool, one at a time; a computer move never waits
    /// for one, even with a pool of one thread.
    #[test]
    fn a_search_aside_never_takes_a_thread_of_the_pool() {
        let pool = SearchPool::new(1);
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let order = Arc::new(Mutex::new(Vec::new()));
        runtime().block_on(async {
            let first = {
                let order = order.clone();
                pool.run_aside("hint", move || {
                    let _ = gate.recv();
                    order.lock().unwrap().push("hint 1");
                })
            };
            let second = {
                let order = order.clone();
                pool.run_aside("hint", move || order.lock().unwrap().push("hint 2"))
            };
            let live = {
                let (order, inner) = (order.clone(), order.clone());
                let pool = &pool;
                async move {
                    // The move is chosen while the first hint still waits to be released.
                    let moved = pool
                        .run(Timestamp(5), move || inner.lock().unwrap().push("move"))
                        .await;
                    order.lock().unwrap().push("released");
                    release.send(()).unwrap();
                    moved
                }
            };
            let (a, b, c) = tokio::join!(first, second, live);
            assert_eq!((a, b, c), (Ok(()), Ok(()), Ok(())));
        });
        assert_eq!(
            *order.lock().unwrap(),
            ["move", "released", "hint 1", "hint 2"]
        );
        assert_eq!(pool.stats().done, 1, "only the move ran in the pool");
        assert_eq!(pool.stats().aside_done, 2);
    }
}
