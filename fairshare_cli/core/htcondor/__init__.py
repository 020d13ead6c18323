"""htcondor."""
