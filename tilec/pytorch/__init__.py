"""PyTorch in, ta out: ``tilec.compile`` and the ``torch.compile`` backend."""
