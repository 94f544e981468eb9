#pragma once
// control: a parser header with no test on its path
