#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace posenc {

class ControlPanel;
class MatrixLoader;

// The batch's tables read from files in the window (docs/ARCHITECTURE.md, Positions in practice):
// the attention mask and the document ids, chosen in a file dialog, read off the GUI thread as the
// command line reads them (BatchTables), their columns the row length (max_len), and applied as an
// edit of the controls; refused with the rows' messages otherwise.
class BatchFiles : public QObject
{
    Q_OBJECT

public:
    BatchFiles(QWidget *window, ControlPanel *controls, QObject *parent = nullptr);

    // Whether `key` is one of the batch's tables: "attention-mask", "document-ids".
    static bool holds(const QString &key);
    // Asks for the file of `key`'s table, then reads it.
    void choose(const QString &key);
    // Reads `path` as `key`'s table.
    void load(const QString &key, const QString &path);
    // Leaves the batch without its tables read from files.
    void clear();

signals:
    void failed(const QString &title, const QString &message);

private:
    QWidget *m_window;
    ControlPanel *m_controls;
    MatrixLoader *m_loader;
};

} // namespace posenc
