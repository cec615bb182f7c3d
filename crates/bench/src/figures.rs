//! What every benchmark prints and samples beside its figures: the table or one JSON object
//! (`--json`), the machine's load average (figures from a busy machine are only comparable
//! with the baselines of the same run), and a process's resident memory.

use anyhow::Context as _;
use serde::Serialize;

use crate::BenchError;

/// Prints a bench's figures: one JSON object with `--json`, else its table.
pub fn print_figures<T: Serialize>(
    figures: &T,
    json: bool,
    table: impl FnOnce(&T),
) -> Result<(), BenchError> {
    if json {
        println!("{}", serde_json::to_string(figures).context("JSON output")?);
    } else {
        table(figures);
    }
    Ok(())
}

/// The 1-minute, 5-minute and 15-minute load averages (Linux), or "unknown".
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// Which process's memory to read: this one, or a child by its id.
#[derive(Debug, Clone, Copy)]
pub enum Process {
    This,
    Child(u32),
}

/// Resident set of `process` in bytes (Linux `/proc/PID/statm`, pages of 4 KiB).
pub fn resident_bytes(process: Process) -> Result<f64, BenchError> {
    let path = match process {
        Process::This => "/proc/self/statm".to_owned(),
        Process::Child(pid) => format!("/proc/{pid}/statm"),
    };
    let statm =
        std::fs::read_to_string(&path).with_context(|| format!("read {path} (Linux only)"))?;
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|field| field.parse().ok())
        .with_context(|| format!("parse {path}"))?;
    Ok(pages as f64 * 4096.0)
}

/// CPU time this thread has run so far (Linux `/proc/thread-self/schedstat`, nanoseconds):
/// on a shared machine a single-threaded figure's CPU time is what an idle machine's wall
/// time would be, which the wall clock of a busy one is not.
pub fn thread_cpu_time() -> Result<std::time::Duration, BenchError> {
    let path = "/proc/thread-self/schedstat";
    let text =
        std::fs::read_to_string(path).with_context(|| format!("read {path} (Linux only)"))?;
    let nanos: u64 = text
        .split_whitespace()
        .next()
        .and_then(|field| field.parse().ok())
        .with_context(|| format!("parse {path}"))?;
    Ok(std::time::Duration::from_nanos(nanos))
}

/// CPU time (user and system) every thread of this process has run so far, exited ones
/// included (Linux `/proc/self/stat`, in the kernel's fixed 1/100 s ticks).
pub fn process_cpu_time() -> Result<std::time::Duration, BenchError> {
    let path = "/proc/self/stat";
    let text =
        std::fs::read_to_string(path).with_context(|| format!("read {path} (Linux only)"))?;
    // Fields after the command name (which may hold spaces, so split after its `)`): state
    // is field 3; utime and stime are fields 14 and 15.
    let after_name =
        text.rsplit_once(')').map(|(_, rest)| rest).context("parse /proc/self/stat")?;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |index: usize| -> Result<u64, BenchError> {
        Ok(fields
            .get(index)
            .and_then(|field| field.parse().ok())
            .context("parse /proc/self/stat")?)
    };
    Ok(std::time::Duration::from_millis((ticks(11)? + ticks(12)?) * 10))
}
