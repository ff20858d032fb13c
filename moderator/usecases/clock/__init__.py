"""Use cases started by the clock: deadlines, reminders, timeouts, bounce pauses, outages."""
