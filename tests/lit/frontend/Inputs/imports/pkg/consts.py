import torch  # not found, and never needed

BIG = 1024
HOST_ONLY = torch.ones(3)
