"""Talking to systemd without libsystemd: readiness and watchdog notifications (``notify``) and
socket activation (``activation``).

Both protocols are small, stable and documented (sd_notify(3), sd_watchdog_enabled(3),
sd_listen_fds(3)), so they are written here rather than pulling in a C binding.
"""
