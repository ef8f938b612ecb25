#pragma once

#include "io/TensorInfo.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QPushButton;
class QTreeWidget;

namespace posenc {

// Chooses one matrix of a file that holds several arrays: each is listed with its name, dtype
// and shape; arrays that are not 2-D, or whose dtype cannot be read, are shown but cannot be
// chosen, and say why. A tick says whether the matrix is a learned position table (guessed
// from its name: "wpe", "position").
class TensorPicker : public QDialog
{
    Q_OBJECT

public:
    // What the matrix is chosen for: loaded as embeddings or a position table, or checked as a
    // table of positions (File > Check a table…), which takes (L, 1, d) and (1, L, d) too.
    enum class Purpose { Load, Check };

    // `positionTable`: the matrix is asked for as a position table, whatever its name.
    TensorPicker(const QString &path, const std::vector<TensorInfo> &tensors, QWidget *parent = nullptr,
                 bool positionTable = false, Purpose purpose = Purpose::Load);

    // Why a tensor cannot be chosen; empty when it can.
    static QString refusal(const TensorInfo &tensor, Purpose purpose = Purpose::Load);
    // A name that a learned position table usually has.
    static bool looksLikePositionTable(const QString &name);

    QTreeWidget *list() const { return m_list; }
    // The chosen tensor's name (empty when none is chosen).
    QString selectedTensor() const;
    bool isPositionTable() const;
    void select(const QString &name);

private:
    void selectionChanged();

    QTreeWidget *m_list;
    QCheckBox *m_positionTable;
    bool m_askedForTable; // File > Load position table: checked whatever the name
    Purpose m_purpose;
    QPushButton *m_ok = nullptr;
};

} // namespace posenc
