import java.io.StringReader;
import javax.xml.parsers.DocumentBuilderFactory;
import org.mustangproject.validator.ZUGFeRDValidator;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * Validates Factur-X / ZUGFeRD PDFs with Mustang's validator, all in one Java start: prints a line a file
 * ("FILE valid" or "FILE invalid") and one a message of Mustang's report; exits 1 when any is invalid.
 */
public class MustangCheck {
  public static void main(String[] args) throws Exception {
    boolean allValid = true;
    for (String path : args) {
      String report = new ZUGFeRDValidator().validate(path);
      Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(new InputSource(new StringReader(report)));
      NodeList summaries = document.getElementsByTagName("summary");
      boolean valid = summaries.getLength() > 0
          && "valid".equals(((Element) summaries.item(summaries.getLength() - 1)).getAttribute("status"));
      allValid &= valid;
      System.out.println(path + (valid ? " valid" : " invalid"));
      for (String severity : new String[] {"exception", "fatal", "error", "warning"}) {
        NodeList messages = document.getElementsByTagName(severity);
        for (int i = 0; i < messages.getLength(); i++) {
          Element message = (Element) messages.item(i);
          String type = message.getAttribute("type");
          String location = message.getAttribute("location")
              .replaceAll("\\[namespace-uri\\(\\)='[^']*'\\]", "").replace("*:", "");
          System.out.println("  " + severity + (type.isEmpty() ? "" : " " + type) + ": "
              + message.getTextContent().trim().replaceAll("\\s+", " ")
              + (location.isEmpty() ? "" : " (at " + location + ")"));
        }
      }
    }
    System.exit(allValid ? 0 : 1);
  }
}
