//! The shutdown signal as schema data, so long-lived subscription streams end (and their
//! WebSocket connections close) when the server stops; also what stops the tasks the
//! composition root runs beside the server (the webhook deliveries).

use tokio::sync::watch;

/// A handle that completes [`Shutdown::requested`] once shutdown starts. The default
/// handle never fires (a schema used without a server).
#[derive(Debug, Clone, Default)]
pub struct Shutdown(Option<watch::Receiver<bool>>);

impl Shutdown {
    /// A handle and the sender that triggers it (`send(true)`).
    pub fn channel() -> (watch::Sender<bool>, Shutdown) {
        let (sender, receiver) = watch::channel(false);
        (sender, Shutdown(Some(receiver)))
    }

    /// Completes when shutdown is requested (or the trigger is gone).
    pub async fn requested(&mut self) {
        match &mut self.0 {
            Some(receiver) => {
                // An error means the sender was dropped: the server is gone, stop too.
                let _ = receiver.wait_for(|requested| *requested).await;
            }
            None => std::future::pending().await,
        }
    }

    /// [`Shutdown::requested`] of this handle, owned (for a task spawned beside the server).
    pub async fn requested_owned(mut self) {
        self.requested().await;
    }
}
