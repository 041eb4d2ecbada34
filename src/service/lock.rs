//! The one way the service takes its mutexes.

use std::sync::{Mutex, MutexGuard};

/// Takes `mutex`. A panic while holding a lock leaves consistent data here (every update is checked
/// first and then applied), so a poisoned lock is simply taken over.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
