#include "DeclaredShape.h"

#include <algorithm>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::DeclaredShape {

TableMatch named(TableMatch m, const QStringList &ids, const QString &said, const QString &readValue)
{
    const bool otherwiseCorrect = m.mistakes.isEmpty() && m.verdict == CheckVerdict::Correct;
    for (auto id = ids.crbegin(); id != ids.crend(); ++id) {
        m.mistakes.removeAll(*id);
        m.mistakes.prepend(*id);
    }
    m.verdict = CheckVerdict::Mistake;
    m.correctAgainst.clear();
    m.diagnosis = otherwiseCorrect
        ? said + u"; every other parameter is the declared one, every cell compared at %1"_s.arg(readValue)
        : said + u"; at %1: "_s.arg(readValue) + m.diagnosis;
    return m;
}

std::vector<std::pair<std::int64_t, std::int64_t>> otherGrids(std::int64_t patches, std::int64_t height,
                                                              std::int64_t width)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> grids;
    for (std::int64_t h = 1; patches > 0 && h <= patches / h; ++h) {
        if (patches % h != 0)
            continue;
        grids.emplace_back(h, patches / h);
        if (h != patches / h)
            grids.emplace_back(patches / h, h);
    }
    const auto rank = [height, width](const std::pair<std::int64_t, std::int64_t> &g) {
        if (g.first == g.second)
            return std::int64_t(0);
        if (g.first == height || g.second == width)
            return std::int64_t(1);
        return 2 + std::abs(g.first - g.second);
    };
    std::stable_sort(grids.begin(), grids.end(), [&rank](const auto &a, const auto &b) { return rank(a) < rank(b); });
    std::erase_if(grids, [height, width](const auto &g) {
        return (g.first == height && g.second == width) || (g.first == width && g.second == height);
    });
    return grids;
}

} // namespace posenc::DeclaredShape
