#pragma once

#include <QDialog>

class QTextBrowser;

namespace posenc {

// Help > User guide: the README's usage part (UserGuide::markdown), shown as a page in the
// program. Not modal: the window can be used while it is open.
class UserGuideDialog : public QDialog
{
    Q_OBJECT

public:
    explicit UserGuideDialog(QWidget *parent = nullptr);

    QTextBrowser *browser() const { return m_browser; }

private:
    QTextBrowser *m_browser;
};

} // namespace posenc
