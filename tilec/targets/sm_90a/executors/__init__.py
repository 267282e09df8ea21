"""sm_90a's part of the executors layer (tilec.executors): what the other targets do not have."""
