#pragma once

#include "CheckExpect.h"

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <functional>
#include <memory>
#include <optional>
#include <variant>

// A stack's slice checked as the 2-D table of its shape is (docs/ARCHITECTURE.md, Checking a
// table, "Shapes"): a batch of cos|sin caches [B, L, 2K] (torch.cat((cos, sin), -1) per sequence)
// holds in each slice two tables side by side, each half checked as its table, as a table of that
// shape is, never the whole slice as a cos table whose sin half deviates.
namespace posenc::CheckTensor {

// How a table is checked: as two tables side by side (nothing where it is no such pair), and as
// itself; either gives the exit code where the check stopped.
struct TableChecks
{
    std::function<std::optional<std::variant<TableMatch, int>>(const std::shared_ptr<const TableRows> &,
                                                                const CheckExpect::Expectation &)>
        paired;
    std::function<std::variant<TableMatch, int>(const TableRows &, const CheckExpect::Expectation &)> rows;
};

// The slice's match as a table of its shape gets it: a declared family's pair reading where there is
// one, else the table's own reading, the better of it and the pair's kept (PairedTables::betterReading).
std::variant<TableMatch, int> checkSlice(const std::shared_ptr<const TableRows> &slice,
                                         const CheckExpect::Expectation &expected, const TableChecks &checks);

} // namespace posenc::CheckTensor
