// control: the test of parsers/fake/other_parsers.h
