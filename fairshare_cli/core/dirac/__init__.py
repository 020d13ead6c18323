"""dirac."""
