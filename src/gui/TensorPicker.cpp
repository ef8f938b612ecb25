#include "TensorPicker.h"

#include "FileOpening.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

TensorPicker::TensorPicker(const QString &path, const std::vector<TensorInfo> &tensors, QWidget *parent,
                           bool positionTable, Purpose purpose)
    : QDialog(parent)
    , m_list(new QTreeWidget(this))
    , m_positionTable(new QCheckBox(tr("This is a learned position table: use it as the learned encoding's"), this))
    , m_askedForTable(positionTable)
    , m_purpose(purpose)
{
    const bool check = purpose == Purpose::Check;
    setWindowTitle(check ? tr("Choose a table to check") : tr("Choose a matrix"));
    auto *layout = new QVBoxLayout(this);
    const int count = static_cast<int>(tensors.size());
    layout->addWidget(
        new QLabel((check ? tr("%1 holds %n arrays; choose the table of positions to check:", nullptr, count)
                          : tr("%1 holds %n arrays; choose the matrix to use as embeddings:", nullptr, count))
                       .arg(QFileInfo(path).fileName()),
                   this));
    m_list->setObjectName(u"tensorList"_s);
    m_list->setHeaderLabels({tr("Name"), tr("dtype"), tr("shape"), tr("note")});
    m_list->setRootIsDecorated(false);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    for (const TensorInfo &t : tensors) {
        const QString why = refusal(t, purpose);
        auto *item = new QTreeWidgetItem(m_list, {t.name, t.dtype, t.shapeText(false), why});
        if (!why.isEmpty()) {
            item->setFlags(item->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
            for (int c = 0; c < 4; ++c)
                item->setToolTip(c, why);
        }
    }
    layout->addWidget(m_list, 1);
    m_positionTable->setObjectName(u"positionTableBox"_s);
    layout->addWidget(m_positionTable);
    m_positionTable->setVisible(!check);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(check ? tr("Check") : tr("Load"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &TensorPicker::selectionChanged);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this] {
        if (!selectedTensor().isEmpty())
            accept();
    });
    resize(620, 360);
    // The first loadable matrix is chosen to start with, a position table if there is one.
    QString first;
    for (const TensorInfo &t : tensors) {
        if (!refusal(t, purpose).isEmpty())
            continue;
        if (first.isEmpty() || (looksLikePositionTable(t.name) && !looksLikePositionTable(first)))
            first = t.name;
    }
    select(first);
    selectionChanged();
}

QString TensorPicker::refusal(const TensorInfo &tensor, Purpose purpose)
{
    if (purpose == Purpose::Check) {
        // A table of positions is L x d once its dimensions of size 1 are dropped (TableFile).
        const auto wide
            = std::count_if(tensor.shape.cbegin(), tensor.shape.cend(), [](std::int64_t n) { return n != 1; });
        if (!tensor.element)
            return tr("dtype %1 cannot be read").arg(tensor.dtype);
        if (std::find(tensor.shape.cbegin(), tensor.shape.cend(), std::int64_t(0)) != tensor.shape.cend())
            return tr("empty array");
        if (wide > 2 || tensor.shape.size() < 2)
            return tr("not a table (%1): positions x columns, dimensions of size 1 aside").arg(tensor.shapeText(false));
        return {};
    }
    if (!tensor.isMatrix())
        return tr("not a matrix (%1-D): embeddings need a 2-D matrix").arg(tensor.shape.size());
    if (!tensor.element)
        return tr("dtype %1 cannot be read").arg(tensor.dtype);
    if (tensor.shape[0] == 0 || tensor.shape[1] == 0)
        return tr("empty matrix");
    return {};
}

bool TensorPicker::looksLikePositionTable(const QString &name)
{
    return FileOpening::isPositionTable(name).value_or(false);
}

QString TensorPicker::selectedTensor() const
{
    const QList<QTreeWidgetItem *> items = m_list->selectedItems();
    return items.isEmpty() ? QString() : items.constFirst()->text(0);
}

bool TensorPicker::isPositionTable() const
{
    return m_positionTable->isChecked();
}

void TensorPicker::select(const QString &name)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        item->setSelected(!name.isEmpty() && item->text(0) == name && (item->flags() & Qt::ItemIsSelectable));
    }
}

void TensorPicker::selectionChanged()
{
    const QString name = selectedTensor();
    m_ok->setEnabled(!name.isEmpty());
    m_positionTable->setChecked(m_askedForTable || looksLikePositionTable(name));
}

} // namespace posenc
