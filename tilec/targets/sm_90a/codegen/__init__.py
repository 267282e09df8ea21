"""sm_90a's part of the codegen layer (tilec.codegen): what the other targets do not have."""
