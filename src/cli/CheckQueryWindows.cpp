#include "CheckQueryWindows.h"

#include "check/OffsetProfile.h"
#include "check/PositionWindows.h"

using namespace Qt::StringLiterals;

namespace posenc::CheckQueryWindows {

namespace {

// The check of `table` with a relative map's queries read from `start` (TableSample::queryStart),
// the window a parameter passed down, as --positions declares one.
std::variant<TableMatch, int> checkAt(const TableRows &table, const Run &run, const CheckExpect::Expectation &expected,
                                      std::int64_t start, QTextStream &err, const AsIs &asIs)
{
    TableCheck::Declared declaration = run.declaration;
    declaration.queryStart = start;
    CheckExpect::Expectation at = expected;
    at.queryStart = start;
    const Run atRun {at, declaration, run.budget, run.threads, run.interrupt, run.quiet, run.heads};
    return asIs(table, atRun, at, err);
}

bool readsAsMap(const std::variant<TableMatch, int> &checked)
{
    const auto *m = std::get_if<TableMatch>(&checked);
    return m && (m->verdict == CheckVerdict::Correct || m->verdict == CheckVerdict::Variant);
}

// --expect FAMILY declares no positions (no --positions, --position-ids, reference table or config):
// a declared family's table whose comparison names position-offset (row r at r + F, F > 0: a later
// chunk of a sequence, which a cached decoding step or a chunked prefill computes) is compared again
// at F, as identify reads an undeclared table (PositionWindows::readAtFound); where that names no
// offset and fewer mistakes, the window is a faithful slice, said and not judged.
std::variant<TableMatch, int> atFoundWindow(const TableRows &table, const Run &run,
                                            const CheckExpect::Expectation &expected, QTextStream &err,
                                            const AsIs &asIs)
{
    auto checked = asIs(table, run, expected, err);
    const auto *found = std::get_if<TableMatch>(&checked);
    if (!found || expected.kind != CheckExpect::Expectation::Kind::Family || expected.positionsDeclared
        || run.declaration.positionsDeclared || !expected.configPath.isEmpty() || found->positions)
        return checked;
    QString discarded;
    QTextStream quiet(&discarded);
    const auto identify = [&](const CheckDeclaration &at) -> std::variant<TableMatch, QString> {
        TableCheck::Declared declaration = run.declaration;
        declaration.firstPosition = at.firstPosition;
        declaration.positionsDeclared = true;
        CheckExpect::Expectation atWindow = expected;
        atWindow.firstPosition = at.firstPosition;
        atWindow.positionsDeclared = true;
        const Run atRun {atWindow, declaration, run.budget, run.threads, run.interrupt, run.quiet, run.heads};
        auto again = asIs(table, atRun, atWindow, quiet);
        if (auto *m = std::get_if<TableMatch>(&again))
            return std::move(*m);
        return u"not read at the window"_s;
    };
    if (auto at = PositionWindows::readAtFound(*found, table.rows(), run.declaration, identify))
        return std::move(*at);
    return checked;
}

const QString kCacheWords = u"a step with a cache puts them there (transformers' T5Attention.forward keeps "
                            "position_bias[:, :, -seq_length:, :]; x-transformers' q_pos = arange(j - i, j))"_s;

} // namespace

std::variant<TableMatch, int> checkRows(const TableRows &table, const Run &run,
                                        const CheckExpect::Expectation &expected, QTextStream &err, const AsIs &asIs)
{
    const std::int64_t queries = table.rows(), keys = table.cols();
    const std::int64_t cache = queryStart(queries, keys);
    constexpr std::int64_t kMostKeys = std::int64_t(1) << 16;
    if (cache == 0 || keys > kMostKeys || expected.kind == CheckExpect::Expectation::Kind::Table
        || !PositionWindows::mayBeQueryWindow(table))
        return atFoundWindow(table, run, expected, err, asIs);
    const bool byConfig = !expected.configPath.isEmpty() && !run.declaration.positionsDeclared;
    const std::optional<std::int64_t> declared = run.declaration.positionsDeclared ? run.declaration.queryStart
        : byConfig                                                                 ? std::optional(cache)
                                                                                   : std::nullopt;
    QString discarded;
    QTextStream quiet(&discarded);
    if (!declared) {
        auto checked = checkAt(table, run, expected, cache, err, asIs);
        std::int64_t start = cache;
        if (!readsAsMap(checked)) {
            auto first = checkAt(table, run, expected, 0, quiet, asIs);
            if (!readsAsMap(first))
                return checked;
            checked = std::move(first);
            start = 0;
        }
        TableMatch m = std::get<TableMatch>(std::move(checked));
        PositionWindow window = m.positions.value_or(PositionWindow {start, start + queries - 1, false, true, {}});
        window.ambiguity = window.first == cache
            ? u"the %1 queries read at positions %2..%3, the last %1 of the %4 keys: %5; the first %1 (0..%6, a map "
              "without a cache, DeBERTa's build_relative_position) is as faithful a window, and the check cannot "
              "tell which the caller meant: --positions A:B declares it"_s.arg(queries)
                  .arg(cache)
                  .arg(keys - 1)
                  .arg(keys)
                  .arg(kCacheWords)
                  .arg(queries - 1)
            : u"the %1 queries read at positions %2..%3 of the %4 keys (a map without a cache, DeBERTa's "
              "build_relative_position), where the last %1 (%5..%6: %7) do not read as a family's map; both windows "
              "are faithful, and the check cannot tell which the caller meant: --positions A:B declares it"_s
                  .arg(queries)
                  .arg(window.first)
                  .arg(window.last)
                  .arg(keys)
                  .arg(cache)
                  .arg(keys - 1)
                  .arg(kCacheWords);
        PositionWindows::say(m, window);
        return m;
    }
    auto checked = checkAt(table, run, expected, *declared, err, asIs);
    auto *match = std::get_if<TableMatch>(&checked);
    if (!match || !(match->verdict == CheckVerdict::Mistake || match->verdict == CheckVerdict::Unknown))
        return checked;
    for (const std::int64_t other : {cache, std::int64_t(0)}) {
        if (other == *declared)
            continue;
        const auto again = checkAt(table, run, expected, other, quiet, asIs);
        if (!readsAsMap(again))
            continue;
        const TableMatch &read = std::get<TableMatch>(again);
        const std::int64_t at = read.positions ? read.positions->first : other;
        TableMatch named = std::move(*match);
        named.verdict = CheckVerdict::Mistake;
        named.correctAgainst.clear();
        named.mistakes = QStringList {CheckMistakes::kPositionOffset} + read.mistakes;
        named.positions = PositionWindow {*declared, *declared + queries - 1, true, true, {}};
        named.notes.prepend(
            u"read at query positions %1..%2 instead: %3"_s.arg(at).arg(at + queries - 1).arg(read.diagnosis));
        const QString where = byConfig ? kCacheWords : u"--positions declares them there"_s;
        named.diagnosis = u"the %1 queries are at positions %2..%3 of the %4 keys, where the declaration puts them at "
                          "%5..%6 (%7): query offset %2 where the declaration gives %5; at %2..%3 the map is %8"_s
                              .arg(queries)
                              .arg(at)
                              .arg(at + queries - 1)
                              .arg(keys)
                              .arg(*declared)
                              .arg(*declared + queries - 1)
                              .arg(where, read.correctAgainst.isEmpty() ? read.referenceText : read.correctAgainst);
        return named;
    }
    return checked;
}

void judgeQueries(TableMatch &m, const Run &run, const CheckExpect::Expectation &expected, std::int64_t keys)
{
    if (!m.positions || !m.positions->queries)
        return;
    PositionWindow &read = *m.positions;
    const std::int64_t queries = read.last - read.first + 1;
    const bool byConfig = !expected.configPath.isEmpty() && !run.declaration.positionsDeclared;
    const std::optional<std::int64_t> declared = run.declaration.positionsDeclared ? run.declaration.queryStart
        : byConfig                                                                 ? std::optional(keys - queries)
                                                                                   : std::nullopt;
    if (!declared)
        return;
    m.notes.removeAll(read.ambiguity);
    read.ambiguity.clear();
    if (read.first == *declared) {
        read.declared = true;
        return;
    }
    m.verdict = CheckVerdict::Mistake;
    m.correctAgainst.clear();
    m.mistakes.prepend(CheckMistakes::kPositionOffset);
    const QString where = byConfig ? kCacheWords : u"--positions declares them there"_s;
    m.notes.prepend(m.diagnosis);
    m.diagnosis = u"the %1 queries are at positions %2..%3 of the %4 keys, where the declaration puts them at "
                  "%5..%6 (%7): query offset %2 where the declaration gives %5"_s.arg(queries)
                      .arg(read.first)
                      .arg(read.last)
                      .arg(keys)
                      .arg(*declared)
                      .arg(*declared + queries - 1)
                      .arg(where);
    read = PositionWindow {*declared, *declared + queries - 1, true, true, {}};
}

} // namespace posenc::CheckQueryWindows
