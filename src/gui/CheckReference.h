#pragma once

#include "check/TableCheck.h"
#include "core/Params.h"
#include "core/WorkProgress.h"
#include "io/MatrixFile.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <variant>

class QComboBox;
class QPushButton;

namespace posenc {

// The reference a table is checked against in the Check a table… dialog, as posenc check's
// --expect and --expect-table declare it (docs/ARCHITECTURE.md, Checking a table): none (the
// table is identified), the window's parameters (exactly that family's table), or another table
// compared cell by cell.
struct DeclaredReference
{
    enum class Kind { Identified, Parameters, Table };
    Kind kind = Kind::Identified;
    Params params; // Parameters: the family and its parameters
    QString table; // Table: FILE or FILE:TENSOR
};

namespace CheckRun {

struct Outcome
{
    std::shared_ptr<const TableRows> table;
    TableMatch match;
    TableCheck::Verification verification;
};

// Opens `source`, identifies it or takes the declared reference's matches (of a RoPE, the cos and
// the sin table: the one with fewer deviating cells), streams every row and concludes. Nothing when
// cancelled; a message naming the file when it cannot be checked.
std::optional<std::variant<Outcome, QString>> run(const MatrixSource &source, std::uint64_t budget,
                                                  const DeclaredReference &reference, const std::atomic<bool> &cancel,
                                                  WorkProgress *progress);

} // namespace CheckRun

// "Compare with: [what the table is | the window's parameters | a reference table…] [Check again]".
class CheckReferenceRow : public QWidget
{
    Q_OBJECT

public:
    using CurrentParams = std::function<Params()>;
    explicit CheckReferenceRow(CurrentParams current, QWidget *parent = nullptr);

    DeclaredReference reference() const;
    // Chooses the reference table (the file dialog's answer; tests set it directly).
    void setReferenceTable(const QString &path);
    QComboBox *choice() const { return m_choice; }
    QPushButton *checkAgain() const { return m_again; }

signals:
    // Check again against the reference chosen.
    void requested();

private:
    CurrentParams m_current;
    QComboBox *m_choice;
    QPushButton *m_again;
    QString m_table;
};

} // namespace posenc
