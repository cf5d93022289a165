package training;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.*;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What judged programs typically do, run once while the judge's class-data sharing archive is made
 * (pool.py): the classes it loads start every judge JVM from the archive rather than from the JDK's
 * jimage. Reads stdin as both a tokenizer and a Scanner would, uses the common collections, text
 * formatting, big numbers, streams and lambdas, and reports values as TransCoder harnesses do.
 */
public class Training {
    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        int n = Integer.parseInt(tokens.nextToken());
        long total = Long.parseLong(tokens.nextToken());
        Scanner scanner = new Scanner("3 4.5 word\n");
        int three = scanner.nextInt();
        double half = scanner.nextDouble();
        String word = scanner.next();
        int[] values = new int[n];
        Arrays.fill(values, 7);
        Arrays.sort(values);
        List<Integer> list = new ArrayList<>();
        List<Integer> param0 = new ArrayList<>(Arrays.asList(3, 1, 2));
        Collections.sort(param0);
        Map<String, Integer> counts = new HashMap<>();
        TreeMap<Integer, Long> ordered = new TreeMap<>();
        Set<Character> seen = new HashSet<>();
        Deque<Integer> queue = new ArrayDeque<>();
        PriorityQueue<Integer> heap = new PriorityQueue<>(Collections.reverseOrder());
        Vector<String> vector = new Vector<>();
        LinkedList<Integer> linked = new LinkedList<>();
        for (int i = 0; i < n; i++) {
            list.add(i * three);
            counts.merge(word, 1, Integer::sum);
            ordered.put(i, total + i);
            seen.add(Character.toUpperCase(word.charAt(i % word.length())));
            queue.offer(i);
            heap.add(values[i] - i);
            vector.add(String.valueOf(i));
            linked.addFirst(i);
        }
        StringBuilder text = new StringBuilder();
        text.append(String.format("%d %.3f %s%n", three, half, word)).append(Math.max(Math.abs(-total), 1));
        text.append(Math.sqrt(half)).append(Math.pow(2, 10)).append(Integer.MAX_VALUE).append(Long.MIN_VALUE);
        text.append(String.join(",", vector)).append(Character.isDigit('5')).append("ab".toCharArray().length);
        BigInteger big = BigInteger.valueOf(total).pow(3).mod(BigInteger.valueOf(1_000_000_007L));
        String joined = IntStream.range(0, n).map(i -> i * 2).boxed().map(String::valueOf)
                .collect(Collectors.joining(" "));
        int sum = list.stream().mapToInt(Integer::intValue).sum();
        Optional<Integer> largest = counts.values().stream().max(Comparator.naturalOrder());
        PrintWriter out = new PrintWriter(System.out);
        out.println(text + " " + big + " " + joined + " " + sum + " " + largest.orElse(0) + " " + seen.size()
                + " " + queue.peek() + " " + heap.peek() + " " + linked.getFirst() + " " + ordered.firstKey()
                + " " + param0 + " " + Integer.toBinaryString(n) + " " + Double.parseDouble("2.5"));
        out.printf("%s %b%n", Arrays.toString(values), list.isEmpty());
        System.out.println(Integer.valueOf(n).equals(n));
        out.flush();
        for (int i = 0; i < param0.size(); ++i) {
            dynbench.Record.value(param0.get(i) * half);
            dynbench.Record.value((float) total);
            dynbench.Record.value(word);
            dynbench.Record.value(values);
        }
    }
}
