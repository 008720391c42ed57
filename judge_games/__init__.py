"""The games the judge serves, one package each. Only judge.game.registry imports them."""
