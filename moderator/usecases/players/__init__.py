"""Who a sender is (signatures and secrets), signing on, and a player's reliability."""
