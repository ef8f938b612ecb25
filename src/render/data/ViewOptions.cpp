#include "ViewOptions.h"

#include "Colormap.h"

#include "core/ParamText.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ViewOptions {

FigureOption positions(const QString &help)
{
    FigureOption o;
    o.key = QString::fromUtf16(kPositions);
    o.kind = FigureOption::Kind::Text;
    o.valueName = u"A:B"_s;
    o.help = help;
    o.inWindow = false; // the window zooms
    return o;
}

FigureOption dims(const QString &help, bool inWindow)
{
    FigureOption o;
    o.key = QString::fromUtf16(kDims);
    o.kind = FigureOption::Kind::Text;
    o.valueName = u"LIST"_s;
    o.help = help;
    o.inWindow = inWindow;
    return o;
}

FigureOption meanOnly()
{
    FigureOption option;
    option.key = QString::fromUtf16(kMeanOnly);
    option.kind = FigureOption::Kind::Switch;
    option.valueName = u"true|false"_s;
    option.help = u"mean only: no lines marking pixels over which the PE swings"_s;
    option.defaultText = u"false"_s;
    option.redrawsOnly = true;
    return option;
}

bool isMeanOnly(const FigureState &state)
{
    return state.option(QString::fromUtf16(kMeanOnly)) == u"true"_s;
}

FigureOption colormap()
{
    FigureOption option;
    option.key = QString::fromUtf16(kColormap);
    option.kind = FigureOption::Kind::Choice;
    option.help = u"colormap of every map: auto is the figure's own, diverging about zero for signed data, "
                  "sequential (viridis) for data of one sign; %1"_s.arg(Colormaps::reversedHelp());
    option.defaultText = QString::fromUtf16(kAutoColormap);
    option.choices = QStringList {option.defaultText} + Colormaps::names();
    option.aliases = Colormaps::aliases();
    option.valueName = Colormaps::optionValueName(option.defaultText);
    option.redrawsOnly = true;
    return option;
}

FigureOption cellNumbers()
{
    FigureOption option;
    option.key = QString::fromUtf16(kCellNumbers);
    option.kind = FigureOption::Kind::Choice;
    option.help = u"numbers in the cells: auto writes each cell's value in it where every cell in view has room at "
                  "the figure's font, off none"_s;
    option.defaultText = u"auto"_s;
    option.choices = {option.defaultText, u"off"_s};
    // Short enough for a quarter view at 1366 x 768 beside the figure chooser ("numbers in cells" was
    // cut to "numbers in"); the tooltip says where they go.
    option.choiceLabels = {u"numbers"_s, u"no numbers"_s};
    option.valueName = option.choices.join(u'|');
    option.redrawsOnly = true;
    return option;
}

bool showsCellNumbers(const FigureState &state)
{
    return state.option(QString::fromUtf16(kCellNumbers)) != u"off"_s;
}

QList<FigureOption> mapOptions(bool ownColormap)
{
    QList<FigureOption> options {cellNumbers()};
    if (!ownColormap)
        options.prepend(colormap());
    return options;
}

std::optional<std::pair<std::int64_t, std::int64_t>> positionRange(const FigureState &state)
{
    const QString text = state.option(QString::fromUtf16(kPositions));
    if (text.isEmpty())
        return std::nullopt;
    return ParamText::parseRange(text);
}

std::vector<std::int64_t> columns(const FigureState &state)
{
    const QString text = state.option(QString::fromUtf16(kDims)).trimmed();
    if (text.isEmpty())
        return {};
    return ParamText::parseIndexList(text).value_or(std::vector<std::int64_t> {});
}

QList<ParamError> check(const FigureState &state, const QString &figure, std::int64_t rows, std::int64_t cols,
                        std::int64_t maxColumns)
{
    QList<ParamError> problems;
    const QString positionsKey = QString::fromUtf16(kPositions);
    if (const QString text = state.option(positionsKey); !text.isEmpty()) {
        const auto range = ParamText::parseRange(text);
        if (!range || range->first < 0 || range->first >= range->second || range->second > rows)
            problems.append({positionsKey,
                             u"A:B with 0 <= A < B <= %1 (positions of the %2 figure)"_s.arg(rows).arg(figure),
                             QString(), ParamError::quoted(text)});
    }
    const QString dimsKey = QString::fromUtf16(kDims);
    if (const QString text = state.option(dimsKey).trimmed(); !text.isEmpty()) {
        // One more than the most allowed is enough to refuse a list without building it whole.
        const auto list = ParamText::parseIndexList(text, maxColumns + 1);
        const QString allowed = u"a list of at most %1 columns in [0, %2) (columns of the %3 figure), such as "
                                "0,1,64:68"_s.arg(maxColumns)
                                    .arg(cols)
                                    .arg(figure);
        if (!list || list->empty() || std::int64_t(list->size()) > maxColumns) {
            problems.append({dimsKey, allowed, QString(), ParamError::quoted(text)});
        } else {
            for (const std::int64_t c : *list) {
                if (c < 0 || c >= cols) {
                    problems.append({dimsKey, allowed, QString(), QString::number(c)});
                    break;
                }
            }
        }
    }
    return problems;
}

Block inView(const FigureState &state, const Block &fallback)
{
    Block block = fallback;
    if (const auto range = positionRange(state)) {
        block.row0 = range->first;
        block.rows = range->second - range->first;
    }
    if (const std::vector<std::int64_t> list = columns(state); !list.empty()) {
        const auto [lo, hi] = std::minmax_element(list.begin(), list.end());
        block.col0 = *lo;
        block.cols = *hi - *lo + 1;
    }
    return block;
}

} // namespace posenc::ViewOptions
