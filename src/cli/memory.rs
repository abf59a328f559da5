//! The allocator's settings a long-running daemon needs (glibc only).

/// glibc gives each new thread an arena of its own, up to eight a core, and
/// the report threads of a burst of resolutions leave each arena holding
/// pages that stay the daemon's until it ends (measured: 26 MB of heap after
/// a burst, against 8 MB with two arenas, for the same work and CPU time;
/// docs/PERFORMANCE.md). Set before any thread starts.
pub(crate) fn hold_allocator_to_two_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes two integers and changes a setting of the
    // allocator; called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// Returns the memory the allocator holds free to the system. glibc keeps
/// what a burst of resolutions freed (in each report thread's arena too)
/// for reuse, so a daemon that once made a thousand reports would stay at
/// its peak for good; `malloc_trim` gives back every free page of every
/// arena. Elsewhere there is nothing to do.
pub(crate) fn give_back_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer and only releases pages that the
    // allocator itself holds free; it is safe to call at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
