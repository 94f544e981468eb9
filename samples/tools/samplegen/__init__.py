"""Builders of the sample bundles; see samples/README.md and samples/tools/generate_samples.py."""
