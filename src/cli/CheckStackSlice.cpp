#include "CheckStackSlice.h"

#include "check/PairedTables.h"

namespace posenc::CheckTensor {

std::variant<TableMatch, int> checkSlice(const std::shared_ptr<const TableRows> &slice,
                                         const CheckExpect::Expectation &expected, const TableChecks &checks)
{
    auto pair = checks.paired(slice, expected);
    if (pair) {
        if (const int *code = std::get_if<int>(&*pair))
            return *code;
        // Declared, the pair's halves were compared with the declaration: that is the slice's match.
        if (expected.kind != CheckExpect::Expectation::Kind::None)
            return std::get<TableMatch>(std::move(*pair));
    }
    auto table = checks.rows(*slice, expected);
    if (!pair || std::holds_alternative<int>(table))
        return table;
    return PairedTables::betterReading(std::get<TableMatch>(std::move(table)), std::get<TableMatch>(std::move(*pair)));
}

} // namespace posenc::CheckTensor
