#include "CheckFamilyStack.h"

#include "CheckQueryWindows.h"

#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"

namespace posenc::CheckTensor {

bool oneQueryRowAHead(const std::vector<std::int64_t> &shape)
{
    return shape.size() >= 3 && shape[shape.size() - 2] == 1 && shape[shape.size() - 3] > 1 && shape.back() > 1;
}

std::optional<TableMatch> readFamilyStack(const std::vector<std::int64_t> &shape, const TableRows &rows, const Run &run)
{
    const CheckExpect::Expectation &expected = run.expected;
    for (const FamilySpec &family : Families::all()) {
        const auto &readStack = FamilyChecks::of(family.encoding).readStack;
        const bool declaredHere
            = expected.kind == CheckExpect::Expectation::Kind::Family && expected.family == family.encoding;
        if (!readStack || !(declaredHere || expected.kind == CheckExpect::Expectation::Kind::None))
            continue;
        if (auto read = readStack(shape, rows, declaredHere ? &expected.params : nullptr, expected.mapForm)) {
            CheckQueryWindows::judgeQueries(*read, run, expected, shape.back());
            return read;
        }
    }
    return std::nullopt;
}

std::variant<std::optional<TableMatch>, int> readDecodeStep(const TableFile::Tensor &tensor, const Run &run,
                                                            QTextStream &)
{
    using Kind = CheckExpect::Expectation::Kind;
    if (run.expected.kind != Kind::None && run.expected.kind != Kind::Family)
        return std::nullopt;
    return readFamilyStack(tensor.shape, *tensor.rows, run);
}

} // namespace posenc::CheckTensor
