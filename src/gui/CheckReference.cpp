#include "CheckReference.h"

#include "FileDialogs.h"

#include "check/DeclaredReading.h"
#include "check/FamilyCheck.h"
#include "check/PairedTables.h"
#include "check/ReferenceReading.h"
#include "check/TableAgainstTable.h"
#include "core/FamilySpec.h"
#include "core/TrContext.h"
#include "io/TableFile.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace posenc {

namespace CheckRun {

namespace {

constexpr TrContext tr {"TableCheckDialog"};

// The declared reference's matches to stream, or why there is none: the declared family's tables
// (only `word` when the rows are one half of a pair), or the reference table.
std::variant<std::vector<TableMatch>, QString> declaredMatches(const TableRows &table,
                                                               const DeclaredReference &reference, const QString &word,
                                                               std::uint64_t budget, const std::atomic<bool> &cancel)
{
    std::vector<TableMatch> found;
    if (reference.kind == DeclaredReference::Kind::Table) {
        const auto opened = TableFile::open(MatrixSource::parse(reference.table), budget, &cancel);
        if (!opened)
            return tr("the reference table: ") + opened.error().toString();
        auto expected = TableCheck::expectTable(table, opened.value());
        if (const auto *refused = std::get_if<TableCheck::TableRefusal>(&expected))
            return refused->whose == TableCheck::TableRefusal::Whose::Table
                ? refused->message
                : tr("the reference table: ") + refused->message;
        found.push_back(std::get<TableMatch>(std::move(expected)));
        return found;
    }
    const FamilySpec &spec = Families::spec(reference.params.encoding);
    if (!FamilyChecks::of(spec.encoding).table)
        return tr("the window's %1 has no table to compare with").arg(spec.word);
    QString problem;
    const QStringList words = word.isEmpty() ? FamilyChecks::of(spec.encoding).table->tables : QStringList {word};
    for (const QString &each : words) {
        auto expected = TableCheck::expect(table, reference.params.encoding, reference.params, each, &cancel);
        if (auto *match = std::get_if<TableMatch>(&expected))
            found.push_back(std::move(*match));
        else if (problem.isEmpty())
            problem = std::get<QString>(expected);
    }
    if (found.empty())
        return tr("the window's parameters: ") + problem;
    return found;
}

// A table's rows checked as posenc check checks them (TableCheck::streamDeclared): identified, or
// against the declared reference (`word`: the declared family's table a half of a pair stands
// for), a declared family's deviation named by the table's undeclared reading. Nothing when
// cancelled; a message naming the table when it cannot be checked.
std::optional<std::variant<Outcome, QString>> checkRows(const std::shared_ptr<const TableRows> &table,
                                                        const DeclaredReference &reference, const QString &word,
                                                        std::uint64_t budget, const TableCheck::StreamOptions &options,
                                                        const std::atomic<bool> &cancel)
{
    TableCheck::DeclaredRows declared;
    declared.referenceGiven = reference.kind != DeclaredReference::Kind::Identified;
    if (reference.kind == DeclaredReference::Kind::Identified) {
        auto identified = TableCheck::identify(*table, {}, &cancel);
        if (cancel.load())
            return std::nullopt;
        if (const auto *message = std::get_if<QString>(&identified))
            return u"%1: %2"_s.arg(table->name(), *message);
        declared.candidates.push_back(std::get<TableMatch>(std::move(identified)));
    } else {
        auto matches = declaredMatches(*table, reference, word, budget, cancel);
        if (cancel.load())
            return std::nullopt;
        if (const auto *message = std::get_if<QString>(&matches))
            return u"%1: %2"_s.arg(table->name(), *message);
        declared.candidates = std::get<std::vector<TableMatch>>(std::move(matches));
    }
    // A declared family's table that deviates is read undeclared too: the mistake that explains it.
    if (reference.kind == DeclaredReference::Kind::Parameters) {
        auto identified = TableCheck::identify(*table, {}, &cancel);
        if (cancel.load())
            return std::nullopt;
        if (auto *read = std::get_if<TableMatch>(&identified))
            declared.readAs = std::move(*read);
        declared.family = reference.params.encoding;
        declared.params = reference.params;
    }
    auto streamed = TableCheck::streamDeclared(std::move(declared), *table, options);
    if (const auto *stop = std::get_if<TableCheck::StreamStop>(&streamed)) {
        if (stop->why == TableCheck::StreamStop::Why::Cancelled || cancel.load())
            return std::nullopt;
        return stop->why == TableCheck::StreamStop::Why::Reference
            ? u"%1: %2"_s.arg(table->name(), tr("the reference table: ") + stop->message)
            : u"%1: %2"_s.arg(table->name(), stop->message);
    }
    auto &[match, verification] = std::get<TableCheck::Streamed>(streamed);
    // A reference table the rows deviate from, with no mistake named (or its rows or columns moved):
    // named by the published form the reference is, as posenc check names it
    // (TableCheck::nameByReferenceReading).
    if (reference.kind == DeclaredReference::Kind::Table && TableCheck::namedByReferenceReading(match)) {
        if (const auto opened = TableFile::open(MatrixSource::parse(reference.table), budget, &cancel);
            opened && !TableCheck::nameByReferenceReading(match, *table, *opened.value(), options))
            return std::nullopt;
        TableCheck::unknownWithinSummation(match);
    }
    return Outcome {table, std::move(match), std::move(verification)};
}

// A table that holds two of a family's tables side by side (a cos|sin cache), read as posenc check
// reads it: each half checked as the table it stands for, the worse half's outcome the pair's, or
// the message of a half that cannot be checked. Nothing when the table is no such pair or the
// check was cancelled.
std::optional<std::variant<Outcome, QString>> pairOf(const std::shared_ptr<const TableRows> &table,
                                                     const DeclaredReference &reference, std::uint64_t budget,
                                                     const TableCheck::StreamOptions &options,
                                                     const std::atomic<bool> &cancel)
{
    PairedTables::Declared declared;
    if (reference.kind == DeclaredReference::Kind::Parameters) {
        declared.family = reference.params.encoding;
        declared.params = reference.params;
    }
    declared.otherReference = reference.kind == DeclaredReference::Kind::Table;
    std::optional<Outcome> halves[2];
    std::optional<QString> problem;
    bool stopped = false;
    auto pair = PairedTables::read(
        table, declared,
        [&](const std::shared_ptr<const TableRows> &rows, int index, const QString &word) -> std::optional<TableMatch> {
            auto checked = checkRows(rows, reference, word, budget, options, cancel);
            if (!checked)
                return std::nullopt;
            if (auto *message = std::get_if<QString>(&*checked)) {
                problem = std::move(*message);
                return std::nullopt;
            }
            halves[index] = std::get<Outcome>(std::move(*checked));
            return halves[index]->match;
        },
        stopped);
    if (stopped && problem && !cancel.load())
        return std::move(*problem);
    if (!pair || stopped)
        return std::nullopt;
    Outcome &worse = *halves[pair->worse];
    return Outcome {worse.table, std::move(pair->match), std::move(worse.verification)};
}

} // namespace

std::optional<std::variant<Outcome, QString>> run(const MatrixSource &source, std::uint64_t budget,
                                                  const DeclaredReference &reference, const std::atomic<bool> &cancel,
                                                  WorkProgress *progress)
{
    const auto opened = TableFile::open(source, budget, &cancel);
    if (cancel.load())
        return std::nullopt;
    if (!opened)
        return opened.error().toString();
    const std::shared_ptr<const TableRows> table = opened.value();
    TableCheck::StreamOptions options;
    if (const auto refused = TableCheck::fitToBudget(*table, budget, options))
        return *refused + tr("; check a narrower table, or raise the memory budget");
    options.cancel = &cancel;
    options.progress = progress;
    auto pair = pairOf(table, reference, budget, options, cancel);
    if (cancel.load())
        return std::nullopt;
    // A declared family's pair is the table's reading; a half that cannot be checked is the answer.
    if (pair && (reference.kind == DeclaredReference::Kind::Parameters || std::holds_alternative<QString>(*pair)))
        return pair;
    auto whole = checkRows(table, reference, {}, budget, options, cancel);
    if (!whole || !pair || std::holds_alternative<QString>(*whole))
        return whole;
    Outcome &asTable = std::get<Outcome>(*whole);
    Outcome &asPair = std::get<Outcome>(*pair);
    const bool pairBetter = PairedTables::pairIsBetter(asTable.match, asPair.match);
    TableMatch kept = PairedTables::betterReading(std::move(asTable.match), std::move(asPair.match));
    Outcome &outcome = pairBetter ? asPair : asTable;
    outcome.match = std::move(kept);
    return std::move(outcome);
}

} // namespace CheckRun

CheckReferenceRow::CheckReferenceRow(CurrentParams current, QWidget *parent)
    : QWidget(parent)
    , m_current(std::move(current))
    , m_choice(new QComboBox(this))
    , m_again(new QPushButton(tr("Check a&gain"), this))
{
    m_choice->setObjectName(u"checkReferenceChoice"_s);
    m_choice->setAccessibleName(tr("Compare with"));
    m_choice->addItems({tr("what the table is (identified)"), tr("exactly the window's parameters"),
                        tr("a reference table, cell by cell…")});
    m_choice->setToolTip(tr("Declare the reference the table is meant to equal: correct or a mistake against it "
                            "alone, as posenc check --expect and --expect-table"));
    m_again->setObjectName(u"checkAgainButton"_s);
    auto *label = new QLabel(tr("Compare &with:"), this);
    label->setBuddy(m_choice);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label);
    row->addWidget(m_choice, 1);
    row->addWidget(m_again);
    connect(m_choice, &QComboBox::activated, this, [this](int index) {
        if (index != int(DeclaredReference::Kind::Table))
            return;
        FileDialogs::askOpen(this, tr("Reference table"), QString(),
                             tr("Tables (*.npy *.safetensors *.csv);;All files (*)"),
                             [this](const QString &path) { setReferenceTable(path); });
    });
    connect(m_again, &QPushButton::clicked, this, &CheckReferenceRow::requested);
}

DeclaredReference CheckReferenceRow::reference() const
{
    DeclaredReference r;
    r.kind = DeclaredReference::Kind(m_choice->currentIndex());
    if (r.kind == DeclaredReference::Kind::Parameters)
        r.params = m_current();
    if (r.kind == DeclaredReference::Kind::Table) {
        if (m_table.isEmpty())
            r.kind = DeclaredReference::Kind::Identified;
        r.table = m_table;
    }
    return r;
}

void CheckReferenceRow::setReferenceTable(const QString &path)
{
    m_table = path;
    m_choice->setCurrentIndex(int(DeclaredReference::Kind::Table));
    m_choice->setItemText(int(DeclaredReference::Kind::Table), tr("the table %1, cell by cell").arg(path));
}

} // namespace posenc
