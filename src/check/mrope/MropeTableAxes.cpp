// Each column's axis read at a declared prompt's ids (MropeTableAxes.h).
#include "check/mrope/MropeTableAxes.h"

#include "check/CellTolerance.h"
#include "check/DeclaredWords.h"
#include "check/mrope/MropeMistakes.h"
#include "core/mrope/MropeRotation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace Qt::StringLiterals;

namespace posenc::MropeTableAxes {

using MropeMistakes::sectionText;
using MropeMistakes::splitWords;

namespace {

// "columns 65..70, 72" of the sorted columns.
QString columnsText(const std::vector<std::int64_t> &columns)
{
    QStringList parts;
    for (std::size_t i = 0; i < columns.size();) {
        std::size_t k = i;
        while (k + 1 < columns.size() && columns[k + 1] == columns[k] + 1)
            ++k;
        parts.append(k == i ? QString::number(columns[i]) : u"%1..%2"_s.arg(columns[i]).arg(columns[k]));
        i = k + 1;
    }
    if (parts.size() > 8)
        parts = parts.mid(0, 7) + QStringList {u"…"_s, parts.back()};
    return (columns.size() == 1 ? u"column "_s : u"columns "_s) + parts.join(u", "_s);
}

const char *axisName(int axis)
{
    return axis == 0 ? "t" : axis == 1 ? "h" : "w";
}

} // namespace

AxisFits axisFits(const TableEvidence &e, const MropePromptReference &reference, bool cosine)
{
    const MropeTurns &turns = reference.turns();
    const TableSample &sample = e.sample;
    std::vector<MropeIds> ids(std::size_t(sample.size()));
    for (std::int64_t i = 0; i < sample.size(); ++i)
        reference.ids(sample.rows[std::size_t(i)], 1, &ids[std::size_t(i)]);
    const double rounding = 4.0 * halfUnit(e.format) + 1.01 * e.table.textRounding();
    const auto fits = [&](std::int64_t c, int axis) {
        const double inv = turns.inv[std::size_t(turns.pairOf(c))];
        for (std::int64_t i = 0; i < sample.size(); ++i) {
            const MropeIds &id = ids[std::size_t(i)];
            const double angle = double(axis == 0 ? id.t : axis == 1 ? id.h : id.w) * inv;
            const double value = turns.amplitude * (cosine ? std::cos(angle) : std::sin(angle));
            const double tolerance = turns.amplitude * (rounding + 8.0 * 0x1p-24 * std::fabs(angle));
            if (!(std::fabs(double(sample.values(i, c)) - value) <= tolerance))
                return false;
        }
        return true;
    };
    AxisFits out(std::size_t(turns.cols()));
    for (std::int64_t c = 0; c < turns.cols(); ++c)
        for (int a = 0; a < 3; ++a)
            out[std::size_t(c)][std::size_t(a)] = fits(c, a);
    return out;
}

std::optional<ColumnAxes> columnAxesRead(const MropeTurns &turns, const AxisFits &fits)
{
    ColumnAxes read;
    std::vector<int> &axes = read.axes;
    axes.resize(std::size_t(turns.cols()));
    bool moved = false;
    for (std::int64_t c = 0; c < turns.cols(); ++c) {
        const auto &fit = fits[std::size_t(c)];
        const int declared = turns.axes[std::size_t(turns.pairOf(c))];
        int found = fit[std::size_t(declared)] ? declared : -1;
        for (int a = 0; a < 3 && found < 0; ++a) {
            if (a != declared && fit[std::size_t(a)])
                found = a;
        }
        if (found < 0)
            return std::nullopt;
        axes[std::size_t(c)] = found;
        read.timeFits.push_back(fit[0]);
        moved = moved || found != declared;
    }
    if (!moved)
        return std::nullopt;
    return read;
}

std::vector<std::vector<std::int64_t>> sectionsRead(const MropeTurns &turns, const AxisFits &fits, const Params &p)
{
    const std::int64_t pairs = turns.pairs();
    const std::vector<int> declaredAxes = MropeAxes::axes(p.mrope, pairs);
    struct Found
    {
        std::vector<std::int64_t> section;
        bool published = false;
        std::int64_t factor = 0, moved = 0;
    };
    std::vector<Found> found;
    std::set<std::vector<int>> seen {declaredAxes};
    const auto consider = [&](const std::vector<std::int64_t> &section, bool published) {
        MropeParams mrope = p.mrope;
        mrope.section = section;
        if (MropeAxes::sectionProblem(mrope, pairs))
            return;
        const std::vector<int> axes = MropeAxes::axes(mrope, pairs);
        if (!seen.insert(axes).second)
            return;
        for (std::int64_t c = 0; c < turns.cols(); ++c) {
            if (!fits[std::size_t(c)][std::size_t(axes[std::size_t(turns.pairOf(c))])])
                return;
        }
        Found f {section, published, 0, 0};
        f.factor = std::gcd(std::gcd(section[0], section[1]), section[2]);
        for (std::int64_t j = 0; j < pairs; ++j)
            f.moved += axes[std::size_t(j)] != declaredAxes[std::size_t(j)] ? 1 : 0;
        found.push_back(f);
    };
    for (const auto &published : {std::vector<std::int64_t> {16, 24, 24}, std::vector<std::int64_t> {24, 20, 20}})
        if (pairs == 64)
            consider(published, true);
    for (std::int64_t h = 0; h <= pairs; ++h)
        for (std::int64_t w = 0; h + w <= pairs; ++w)
            consider({pairs - h - w, h, w}, false);
    std::stable_sort(found.begin(), found.end(), [](const Found &a, const Found &b) {
        if (a.published != b.published)
            return a.published;
        if (a.factor != b.factor)
            return a.factor > b.factor;
        return a.moved < b.moved;
    });
    std::vector<std::vector<std::int64_t>> sections;
    for (const Found &f : found)
        sections.push_back(f.section);
    return sections;
}

QString sectionWords(const std::vector<std::vector<std::int64_t>> &sections, const MropeTurns &turns, const Params &p)
{
    MropeParams read = p.mrope;
    read.section = sections.front();
    const std::vector<int> axes = MropeAxes::axes(read, turns.pairs());
    QStringList moved;
    for (int found = 0; found < 3; ++found) {
        for (int declared = 0; declared < 3; ++declared) {
            std::vector<std::int64_t> pairs;
            for (std::int64_t j = 0; j < turns.pairs(); ++j) {
                if (found != declared && axes[std::size_t(j)] == found && turns.axes[std::size_t(j)] == declared)
                    pairs.push_back(j);
            }
            if (!pairs.empty())
                moved.append(u"%1 turn by the %2 ids where the declared split gives %3"_s.arg(
                    columnsText(pairs).replace(u"column"_s, u"pair"_s), QLatin1String(axisName(found)),
                    QLatin1String(axisName(declared))));
        }
    }
    QString text = u"the pairs are split by %1 where %2 %3: %4"_s.arg(
        splitWords(sections.front(), p.mrope.interleaved), sectionText(p.mrope.section), DeclaredWords::wasDeclared(),
        moved.join(u"; "_s));
    if (sections.size() > 1) {
        QStringList others;
        for (std::size_t k = 1; k < sections.size() && others.size() < 3; ++k)
            others.append(sectionText(sections[k]));
        text += u" (the sampled ids cannot tell it from mrope_section %1%2: their slowest pairs turn alike at these "
                "ids)"_s.arg(others.join(u", "_s), sections.size() > 4 ? u", …"_s : QString());
    }
    return text;
}

QString columnAxesWords(const MropeTurns &turns, const ColumnAxes &read, const Params &p)
{
    const std::vector<int> &axes = read.axes;
    QStringList said;
    std::vector<std::int64_t> moved;
    for (int found = 0; found < 3; ++found) {
        for (int declared = 0; declared < 3; ++declared) {
            std::vector<std::int64_t> columns;
            for (std::int64_t c = 0; c < turns.cols(); ++c) {
                if (axes[std::size_t(c)] == found && turns.axes[std::size_t(turns.pairOf(c))] == declared
                    && found != declared)
                    columns.push_back(c);
            }
            if (columns.empty())
                continue;
            moved.insert(moved.end(), columns.begin(), columns.end());
            said.append(u"%1 turn by the %2 ids where the split gives %3"_s.arg(
                columnsText(columns), QLatin1String(axisName(found)), QLatin1String(axisName(declared))));
        }
    }
    std::sort(moved.begin(), moved.end());
    QString text = u"%1 (%2)"_s.arg(said.join(u"; "_s), splitWords(p.mrope.section, p.mrope.interleaved));
    const std::int64_t pairs = turns.pairs();
    const bool secondHalf = turns.half && moved.front() >= pairs;
    const bool firstHalf = turns.half && moved.back() < pairs;
    if (secondHalf || firstHalf) {
        bool allTime = true;
        for (std::int64_t c = secondHalf ? pairs : 0; c < (secondHalf ? 2 * pairs : pairs); ++c)
            allTime = allTime && read.timeFits[std::size_t(c)];
        const QString half = secondHalf ? u"second"_s : u"first"_s;
        text += allTime
            ? u": the %1 half of emb = cat(freqs, freqs) holds every pair at the t ids, the sections merged into the "
              "other half only (as xLLM's apply_mrope copied h and w into the first half's columns twice before "
              "xLLM-AI/xllm#746); its other half is the declared split's"_s.arg(half)
            : u": only the %1 half of emb = cat(freqs, freqs) differs; the other half is the declared split's"_s.arg(
                half);
    } else {
        text += u"; the other columns are the declared split's"_s;
    }
    return text;
}

} // namespace posenc::MropeTableAxes
