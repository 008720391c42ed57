"""The games the judge serves, one package each. Only judge.registry imports them."""
