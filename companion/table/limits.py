"""Process limits a server with many open streams needs."""

from __future__ import annotations

import resource

__all__ = ["raise_file_limit"]


def raise_file_limit(wanted: int) -> int:
    """Raise this process's open-file soft limit towards ``wanted`` (up to the hard limit);
    return the limit now in force. Raises OSError if the system refuses."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft
