#pragma once
// control: a parser header with its test
