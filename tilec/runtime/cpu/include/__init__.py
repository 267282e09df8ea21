"""The CPU model of the GPU, as C++ headers (package data): tcpu.h and what it includes."""
