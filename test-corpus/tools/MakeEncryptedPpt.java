// Writes test-corpus/office/encrypted-password-is-slides.ppt: a two-slide PowerPoint 97-2003
// presentation encrypted (RC4 CryptoAPI) with the password "slides", by Apache POI's HSLF.
// One-off; the result is committed. Debian: apt-get install libapache-poi-java, then
//   java -cp "$(ls /usr/share/java/{poi,poi-scratchpad,commons-collections4,commons-math3,commons-codec}.jar | paste -sd:)" \
//     test-corpus/tools/MakeEncryptedPpt.java test-corpus/office/encrypted-password-is-slides.ppt
import java.io.FileOutputStream;
import org.apache.poi.hslf.usermodel.HSLFSlide;
import org.apache.poi.hslf.usermodel.HSLFSlideShow;
import org.apache.poi.hslf.usermodel.HSLFTextBox;
import org.apache.poi.hssf.record.crypto.Biff8EncryptionKey;

public class MakeEncryptedPpt {
  public static void main(String[] args) throws Exception {
    try (HSLFSlideShow show = new HSLFSlideShow()) {
      for (String line : new String[] {"Quire opens locked slides", "Second slide of the locked deck"}) {
        HSLFSlide slide = show.createSlide();
        HSLFTextBox box = slide.createTextBox();
        box.setText(line);
        box.setAnchor(new java.awt.Rectangle(60, 60, 600, 80));
      }
      Biff8EncryptionKey.setCurrentUserPassword("slides");
      try (FileOutputStream out = new FileOutputStream(args[0])) {
        show.write(out);
      } finally {
        Biff8EncryptionKey.setCurrentUserPassword(null);
      }
    }
  }
}
