"""sm_90a's part of the dialects layer (tilec.dialects): what the other targets do not have."""
