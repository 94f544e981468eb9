// control: a test in a folder the tree does not have
