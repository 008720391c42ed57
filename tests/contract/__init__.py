"""The game contract suite: properties every registered game must have."""
