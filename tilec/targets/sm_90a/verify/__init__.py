"""sm_90a's part of the verify layer (tilec.verify): what the other targets do not have."""
