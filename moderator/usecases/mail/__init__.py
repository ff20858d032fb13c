"""Use cases started by one inbound mail; ``handler.MailGameHandler`` is the entry."""
