#include "CheckPositions.h"

#include "check/FamilyCheck.h"
#include "check/TensorShapes.h"
#include "core/FamilySpec.h"
#include "core/ParamError.h"
#include "core/ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::CheckPositions {

CommandOption option()
{
    return {{kKey},
            u"A:B"_s,
            u"the positions the table's rows hold, A..B-1 (as posenc table --positions writes them); of a relative "
            "map, its queries' positions, its keys 0..k-1; of M-RoPE with --prompt, which of the sequence's tokens "
            "the rows are (cache positions: a decode step after the prompt). Rows at another window are then "
            "position-offset, both "
            "windows said; without it a table that is a family's at a window of positions is correct (or variant), "
            "the window said, not judged"_s};
}

std::variant<Window, QString> read(const QCommandLineParser &parser)
{
    if (!parser.isSet(kKey))
        return Window();
    const QString text = parser.value(kKey);
    const auto range = ParamText::parseRange(text);
    if (!range || range->first < 0 || range->first >= range->second)
        return u"--positions: must be A:B with 0 <= A < B, the rows' positions A..B-1; got %1"_s.arg(
            ParamError::quoted(text));
    return Window(*range);
}

std::variant<Window, QString> declare(const QCommandLineParser &parser, CheckDeclaration &declaration,
                                      CheckExpect::Expectation &expected)
{
    auto window = read(parser);
    const auto *declared = std::get_if<Window>(&window);
    if (!declared || !*declared)
        return window;
    if (parser.isSet(u"position-ids"_s))
        return u"--positions: give the rows' positions once, by --positions A:B or by --position-ids IDS.npy"_s;
    declaration.firstPosition = expected.firstPosition = (*declared)->first;
    declaration.positionsDeclared = expected.positionsDeclared = true;
    declaration.queryStart = expected.queryStart = (*declared)->first;
    return window;
}

QString say(TableMatch &match, const Window &window, const QString &name)
{
    if (!window)
        return {};
    // A family whose tables are read by a grid's coordinates (FamilyCheck::rowsAtPositions): no row
    // of them is at a position.
    if (match.family && !FamilyChecks::of(*match.family).rowsAtPositions)
        return u"--positions: %1 is read as a %2 table or map, whose cells are a grid's (a row and a column), "
               "not positions of a sequence; --positions gives a table's rows' positions (--grid gives a 2-D "
               "table's grid)"_s.arg(name, Families::spec(*match.family).heading);
    if (!match.positions)
        match.positions = PositionWindow {window->first, window->second - 1, true, false, {}};
    return {};
}

std::optional<std::int64_t> tableRows(const std::vector<std::int64_t> &shape, bool mropeDeclared)
{
    using TensorShapes::Kind;
    // M-RoPE's per-axis cache, its axis first (CheckSlicesAtIds reads its 3·B slices).
    if (mropeDeclared && shape.size() == 4 && shape.front() == 3)
        return shape[2];
    const Kind kind = TensorShapes::kindOf(shape);
    if (kind == Kind::Vector || kind == Kind::Refused)
        return std::nullopt;
    // Of what is not a stack (dimensions other than 1 at most two), the table of every dimension but
    // the last (TableFile::openTensor's rows): Megatron's [S, 1, 1, D], PyTorch's (max_len, 1, d).
    const std::vector<std::int64_t> stacked = TensorShapes::stackShape(shape);
    std::int64_t all = 1;
    for (std::size_t i = 0; i + 1 < shape.size(); ++i)
        all *= shape[i];
    return {TensorShapes::notOne(shape).size() <= 2 ? all : stacked[stacked.size() - 2]};
}

QString refusal(const Window &declared, const TableFile::Tensor &tensor, const CheckExpect::Expectation &expected)
{
    if (!declared)
        return {};
    const std::pair<std::int64_t, std::int64_t> &window = *declared;
    const std::vector<std::int64_t> &shape = tensor.shape;
    const QString name = tensor.rows->name();
    // An array the check refuses is refused there, with the shapes it accepts.
    if (TensorShapes::kindOf(shape) == TensorShapes::Kind::Refused)
        return {};
    const std::optional<std::int64_t> rows = tableRows(shape, expected.declares(Encoding::Mrope));
    if (!rows)
        return u"--positions: %1 is a vector, which holds no positions; --positions gives a table's rows'"_s.arg(name);
    if (window.second - window.first != *rows)
        return u"--positions: must be A:B with B - A = %1, the rows of %2; got %3:%4"_s.arg(*rows)
            .arg(name)
            .arg(window.first)
            .arg(window.second);
    return {};
}

} // namespace posenc::CheckPositions
