//! A background thread that answers requests one at a time, in order, and calls `wake` after
//! each answer so the app repaints. The tile and texture loaders run on one each.
//!
//! Not for: what a request means or which answers are stale (each loader keeps its sessions).

use std::sync::mpsc::{self, Receiver, Sender};

/// Starts a thread named `name` that turns each request into an answer with `answer`. Returns
/// where to send requests (`None` when the thread could not start: nothing will be answered)
/// and where the answers come back. The thread ends when either side is dropped.
pub fn spawn<Q, A>(
    name: &str,
    answer: impl Fn(Q) -> A + Send + 'static,
    wake: impl Fn() + Send + 'static,
) -> (Option<Sender<Q>>, Receiver<A>)
where
    Q: Send + 'static,
    A: Send + 'static,
{
    let (req_tx, req_rx) = mpsc::channel::<Q>();
    let (res_tx, res_rx) = mpsc::channel::<A>();
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            for r in req_rx {
                if res_tx.send(answer(r)).is_err() {
                    break;
                }
                wake();
            }
        });
    (spawned.is_ok().then_some(req_tx), res_rx)
}
