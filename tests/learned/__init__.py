"""The learned player (issue 49): the expert's decisions as a dataset, the network trained on them, its bot."""
