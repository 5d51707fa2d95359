"""capicua: a dominoes platform for Dominó Amazonense, individual dominoes and Dominousa."""

__version__ = "0.1.0"
